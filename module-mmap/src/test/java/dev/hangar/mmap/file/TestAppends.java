package dev.hangar.mmap.file;

import dev.hangar.spi.mapped.AppendCallback;
import dev.hangar.spi.store.AppendMessageResult;
import dev.hangar.spi.store.AppendMessageStatus;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Append callbacks for tests: write given bytes as one record stamped with a store time. */
public final class TestAppends {
    private TestAppends() {
    }

    public static AppendCallback record(byte[] bytes, long storeTimestamp) {
        return (fileFromOffset, target, maxBlank) -> {
            if (bytes.length > maxBlank) {
                return AppendMessageResult.of(AppendMessageStatus.END_OF_FILE);
            }
            target.put(bytes);
            return AppendMessageResult.of(AppendMessageStatus.PUT_OK, fileFromOffset, bytes.length, List.of(),
                    storeTimestamp, 0, 1);
        };
    }

    public static AppendCallback record(String text, long storeTimestamp) {
        return record(text.getBytes(StandardCharsets.UTF_8), storeTimestamp);
    }
}
