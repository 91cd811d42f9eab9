/**
 * A test kit for plugin authors: fixtures from YAML ({@link io.kftrainer.testkit.Fixtures}), the framework's
 * pipeline on plain objects ({@link io.kftrainer.testkit.TestPipeline}) and readable golden files
 * ({@link io.kftrainer.testkit.Golden}). No cluster, no network.
 */
package io.kftrainer.testkit;
