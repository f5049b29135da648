package dev.hangar.store.commitlog;

import dev.hangar.spi.mapped.AppendCallback;
import dev.hangar.spi.store.AppendMessageResult;
import dev.hangar.spi.store.AppendMessageStatus;
import dev.hangar.spi.store.MessageIdSource;
import dev.hangar.store.format.CommitLogRecordFormat;
import dev.hangar.store.format.MessageEncoder;
import dev.hangar.store.format.MessageIdCodec;
import java.nio.ByteBuffer;

/**
 * Copies records encoded by a {@link MessageEncoder} into a mapped file, stamping queue offsets, physical
 * offsets and the store time. One instance per CommitLog, used only under the put lock: its fields carry the
 * current put, and it answers with its one {@link LiveAppend}, so an append allocates nothing.
 */
final class RecordAppender implements AppendCallback {
    private final LiveAppend live;
    private MessageEncoder encoder;
    private long queueOffset;
    private boolean takesQueueOffset;
    private long storeTimestamp;

    RecordAppender(byte[] storeHostPrefix) {
        MessageIdSource idSource = offset -> MessageIdCodec.create(storeHostPrefix, offset);
        this.live = new LiveAppend(idSource);
    }

    void prepare(MessageEncoder encoder, long queueOffset, boolean takesQueueOffset, long storeTimestamp) {
        this.encoder = encoder;
        this.queueOffset = queueOffset;
        this.takesQueueOffset = takesQueueOffset;
        this.storeTimestamp = storeTimestamp;
    }

    @Override
    public AppendMessageResult doAppend(long fileFromOffset, ByteBuffer target, int maxBlank) {
        int length = encoder.encodedLength();
        long wroteOffset = fileFromOffset + target.position();
        if (length + CommitLogRecordFormat.END_FILE_MIN_BLANK_LENGTH > maxBlank) {
            target.putInt(maxBlank);
            target.putInt(CommitLogRecordFormat.BLANK_MAGIC_CODE);
            live.set(AppendMessageStatus.END_OF_FILE, wroteOffset, maxBlank, storeTimestamp, queueOffset, 0, null);
            return live;
        }
        int n = encoder.recordCount();
        for (int i = 0; i < n; i++) {
            long qo = takesQueueOffset ? queueOffset + i : 0;
            encoder.stamp(i, qo, wroteOffset + encoder.recordStart(i), storeTimestamp);
        }
        encoder.copyTo(target);
        live.set(AppendMessageStatus.PUT_OK, wroteOffset, length, storeTimestamp, takesQueueOffset ? queueOffset : 0,
                n, encoder.relativeStarts());
        return live;
    }
}
