package io.kftrainer.operator.command;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * An exception that escapes a command is a failure (exit 1) reported as one {@code Error: <message>} line on the
 * command's stderr; the stack trace goes to the log at debug level. Commands report expected failures (invalid
 * input) themselves, so what reaches here is a broken setup: a duplicate plugin, an unreadable directory.
 */
public final class ErrorHandler implements IExecutionExceptionHandler {

  private static final Logger LOG = LoggerFactory.getLogger(ErrorHandler.class);

  @Override
  public int handleExecutionException(Exception exception, CommandLine commandLine, ParseResult parseResult) {
    LOG.debug("{} failed", commandLine.getCommandName(), exception);
    String message = exception.getMessage() == null ? exception.toString() : exception.getMessage();
    commandLine.getErr().println("Error: " + message);
    return CommandLine.ExitCode.SOFTWARE;
  }
}
