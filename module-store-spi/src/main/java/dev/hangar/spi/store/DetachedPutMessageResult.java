package dev.hangar.spi.store;

import java.util.List;
import java.util.Objects;

/** The immutable {@link PutMessageResult} of its static factories: refusals, copies, tests. */
final class DetachedPutMessageResult implements PutMessageResult {
    private final PutMessageStatus status;
    private final AppendMessageResult append;
    private final String reason;

    DetachedPutMessageResult(PutMessageStatus status, AppendMessageResult append, String reason) {
        this.status = Objects.requireNonNull(status, "status");
        this.append = append;
        this.reason = reason;
    }

    @Override
    public PutMessageStatus status() {
        return status;
    }

    @Override
    public String reason() {
        return reason;
    }

    @Override
    public AppendMessageResult appendResult() {
        return append;
    }

    @Override
    public boolean appended() {
        return append != null;
    }

    @Override
    public long wroteOffset() {
        return append == null ? 0 : append.wroteOffset();
    }

    @Override
    public int wroteBytes() {
        return append == null ? 0 : append.wroteBytes();
    }

    @Override
    public long storeTimestamp() {
        return append == null ? 0 : append.storeTimestamp();
    }

    @Override
    public long logicsOffset() {
        return append == null ? 0 : append.logicsOffset();
    }

    @Override
    public int messageCount() {
        return append == null ? 0 : append.messageCount();
    }

    @Override
    public List<String> msgIds() {
        return append == null ? List.of() : append.msgIds();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DetachedPutMessageResult r && status == r.status && Objects.equals(append, r.append)
                && Objects.equals(reason, r.reason);
    }

    @Override
    public int hashCode() {
        return Objects.hash(status, append, reason);
    }

    @Override
    public String toString() {
        return "PutMessageResult[status=" + status + ", appendResult=" + append + ", reason=" + reason + "]";
    }
}
