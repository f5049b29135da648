package dev.hangar.launcher;

/**
 * A failure the launcher reports as one line on stderr ("error: ...") with a non-zero exit code; the stack
 * trace is shown only with {@code --verbose}. Immutable.
 */
public class LauncherException extends RuntimeException {
    private final int exitCode;

    public LauncherException(String message) {
        this(message, null, 1);
    }

    public LauncherException(String message, Throwable cause) {
        this(message, cause, 1);
    }

    public LauncherException(String message, Throwable cause, int exitCode) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    /** The process exit code for this failure. */
    public int exitCode() {
        return exitCode;
    }
}
