package dev.hangar.launcher.http;

/**
 * A request the server refuses: the HTTP status and the one-line reason that becomes {@code {"error": "..."}}.
 * Thrown by parsing and validation before the store is touched; carries no stack trace (it is not a fault).
 * Immutable.
 */
final class ApiException extends RuntimeException {
    private final int status;

    ApiException(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    int status() {
        return status;
    }

    static ApiException badRequest(String message) {
        return new ApiException(HttpStatus.BAD_REQUEST, message);
    }
}
