package dev.hangar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.store.AppendMessageResult;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.commitlog.CommitLog;
import dev.hangar.store.commitlog.LiveAppend;
import dev.hangar.store.format.MessageEncoder;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How long an append holds the put lock is published with release stores (no fence inside the lock) and measured
 * only by whoever looks while it lasts (no clock read when it ends). What must still hold: a put arriving while an
 * append is stuck in the lock past {@code osPageCacheBusyTimeOutMills} is refused OS_PAGE_CACHE_BUSY, and once the
 * append returns the hold reads 0 again and puts go through.
 */
class PutLockHoldTest {
    private static final InetSocketAddress STORE = new InetSocketAddress("127.0.0.1", 10911);

    @TempDir
    Path dir;

    @Test
    void aPutBehindAStuckAppendIsRefusedAndTheHoldEndsWithTheAppend() throws Exception {
        try (DefaultMessageStore store = TestStores.started(dir, "osPageCacheBusyTimeOutMills", "50",
                "dispatchers", "")) {
            CommitLog commitLog = TestInternals.commitLog(store);
            assertEquals(0, commitLog.lockHeldMillis(), "nobody holds the lock before the first append");
            CountDownLatch inLock = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CompletableFuture<Boolean> stuck = CompletableFuture.supplyAsync(() -> {
                MessageEncoder encoder = new MessageEncoder(4 * 1024 * 1024);
                encoder.encode(TestStores.message("Held", 0, "stuck in the lock"), STORE);
                return commitLog.append(encoder, "Held", 0, true, new CommitLog.AppendOutcome<Boolean>() {
                    @Override
                    public Boolean appended(LiveAppend append) {
                        inLock.countDown(); // under the put lock: hold it until the test lets go
                        try {
                            return release.await(60, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return false;
                        }
                    }

                    @Override
                    public Boolean failed(AppendMessageResult failure) {
                        return false;
                    }
                });
            });
            assertTrue(inLock.await(20, TimeUnit.SECONDS), "the append reached the lock");
            TestStores.await("the hold to pass osPageCacheBusyTimeOutMills", () -> commitLog.lockHeldMillis() > 50);
            PutMessageResult refused = store.putMessage(TestStores.message("Held", 0, "behind the stuck append"));
            assertEquals(PutMessageStatus.OS_PAGE_CACHE_BUSY, refused.status(), refused.toString());

            release.countDown();
            assertTrue(stuck.get(20, TimeUnit.SECONDS), "the stuck append completed");
            assertEquals(0, commitLog.lockHeldMillis(), "the hold ends when the append returns");
            PutMessageResult after = store.putMessage(TestStores.message("Held", 0, "after the append"));
            assertEquals(PutMessageStatus.PUT_OK, after.status(), after.toString());
        }
    }
}
