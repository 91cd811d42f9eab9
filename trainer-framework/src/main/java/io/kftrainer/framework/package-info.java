/**
 * The Trainer extension framework: a pure plugin SPI ({@code spi}), the values plugins share ({@code model}),
 * the runner that calls plugins in phase order ({@code runner}), plugin discovery ({@code loader}) and Kubernetes'
 * strategic merge ({@code merge}: the runner's runtime patches, the embedded API server's PATCH).
 *
 * <p>Nothing in this module talks to a cluster. Plugins read observed objects through
 * {@link io.kftrainer.framework.spi.ObjectLookup} and return the objects they want; the operator does the I/O.
 */
package io.kftrainer.framework;
