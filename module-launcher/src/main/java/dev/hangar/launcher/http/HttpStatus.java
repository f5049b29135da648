package dev.hangar.launcher.http;

/** The HTTP status codes the API answers with. Constants only. */
final class HttpStatus {
    static final int OK = 200;
    static final int CREATED = 201;
    static final int FOUND = 302;
    static final int NOT_MODIFIED = 304;
    static final int TEMPORARY_REDIRECT = 307;
    static final int BAD_REQUEST = 400;
    static final int UNAUTHORIZED = 401;
    static final int NOT_FOUND = 404;
    static final int METHOD_NOT_ALLOWED = 405;
    static final int PAYLOAD_TOO_LARGE = 413;
    static final int INTERNAL_ERROR = 500;
    static final int SERVICE_UNAVAILABLE = 503;
    static final int GATEWAY_TIMEOUT = 504;

    private HttpStatus() {
    }
}
