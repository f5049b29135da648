package dev.hangar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code getFound}/{@code getMiss} count what clients asked, not the delay-level service's own polling. */
class GetStatsTest {
    @TempDir
    Path dir;

    @Test
    void theDelayServicesPollingIsNotCountedAsClientGets() {
        try (DefaultMessageStore store = TestStores.started(dir, "messageDelayLevel", "1s 2s")) {
            assertTrue(store.putMessage(TestStores.message("Later", 0, "delayed").delayLevel(1)).isOk());
            // delivery takes a second of the service polling both levels (misses) and reading the message (a hit)
            TestStores.await("delivered", () -> store.getMaxOffsetInQueue("Later", 0) == 1);
            assertEquals(0, store.stats().getMiss(), "the service's polling is not a client miss");
            assertEquals(0, store.stats().getFound(), "the service's reads are not client gets");

            assertEquals(1, store.getMessage("client", "Later", 0, 0, 10, null).messages().size());
            assertTrue(store.getMessage("client", "Later", 0, 1, 10, null).messages().isEmpty());
            assertEquals(1, store.stats().getFound());
            assertEquals(1, store.stats().getMiss());
        }
    }
}
