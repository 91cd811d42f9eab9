package io.kftrainer.framework.spi;

import java.util.List;

/**
 * Start-up phase: declares the resources the operator must watch for this plugin, and how an event on one of them
 * maps to TrainJobs to reconcile. A declaration only: the operator turns it into an informer.
 */
public interface WatchExtension extends Plugin {

  List<Watch> watches();
}
