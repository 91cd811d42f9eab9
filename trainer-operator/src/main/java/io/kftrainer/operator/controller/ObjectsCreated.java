package io.kftrainer.operator.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kftrainer.api.v1alpha1.TrainJob;
import java.util.List;

/**
 * Told what a reconcile created for a TrainJob, once the API server has it: the runtime snapshot taken on its first
 * build and each object of its build that did not exist, in the order they were created. Objects that existed and
 * were changed, and objects of kinds no plugin watches (the cache cannot tell whether they existed), are not
 * among them. {@code local} prints them as the TrainJob's {@code created} line. Called on the reconcile's thread.
 */
@FunctionalInterface
public interface ObjectsCreated {

  ObjectsCreated NONE = (trainJob, objects) -> { };

  void created(TrainJob trainJob, List<HasMetadata> objects);
}
