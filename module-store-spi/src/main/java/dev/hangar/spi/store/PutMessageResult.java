package dev.hangar.spi.store;

/**
 * The answer to a put: a status and, when something was appended, what was appended.
 *
 * @param status       the put's outcome
 * @param appendResult the append, or null when nothing was written
 * @param reason       a human-readable reason for a refusal, or null
 */
public record PutMessageResult(PutMessageStatus status, AppendMessageResult appendResult, String reason) {

    public PutMessageResult(PutMessageStatus status, AppendMessageResult appendResult) {
        this(status, appendResult, null);
    }

    public static PutMessageResult refused(PutMessageStatus status, String reason) {
        return new PutMessageResult(status, null, reason);
    }

    public boolean isOk() {
        return status == PutMessageStatus.PUT_OK;
    }
}
