package dev.hangar.launcher;

import java.util.HashSet;
import java.util.Set;

/** Turns an exception chain into the one line an operator reads. Stateless and thread-safe. */
public final class ErrorMessages {
    private static final int MAX_CAUSES = 4;

    private ErrorMessages() {
    }

    /**
     * The messages of {@code t} and its causes joined by ": ", skipping a cause whose message the line already
     * contains, with line breaks flattened so the result is exactly one line.
     */
    public static String oneLine(Throwable t) {
        StringBuilder line = new StringBuilder();
        Set<Throwable> seen = new HashSet<>();
        Throwable current = t;
        for (int depth = 0; current != null && depth < MAX_CAUSES && seen.add(current); depth++) {
            String message = describe(current);
            if (line.indexOf(message) < 0) {
                if (line.length() > 0) {
                    line.append(": ");
                }
                line.append(message);
            }
            current = current.getCause();
        }
        return line.toString().replaceAll("\\s*[\\r\\n]+\\s*", "; ");
    }

    private static String describe(Throwable t) {
        String message = t.getMessage();
        if (message == null || message.isBlank()) {
            return t.getClass().getSimpleName();
        }
        // "NoSuchFileException: /x" says more than "/x"
        if (t instanceof java.nio.file.FileSystemException) {
            return t.getClass().getSimpleName() + " " + message.strip();
        }
        return message.strip();
    }
}
