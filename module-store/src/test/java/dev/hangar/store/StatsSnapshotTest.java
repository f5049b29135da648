package dev.hangar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The typed snapshot that stat, /v1/stats and /metrics read: its fields and its JSON form say the same thing. */
class StatsSnapshotTest {
    @TempDir
    Path dir;

    @Test
    void theTypedFieldsAndTheJsonFormAgreeOnAStartedStore() {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            for (int i = 0; i < 3; i++) {
                assertTrue(store.putMessage(TestStores.message("Snap", 1, "m" + i)).isOk());
            }
            TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
            StatsSnapshot s = store.statsSnapshot();
            assertTrue(s.started());
            assertEquals(3, s.puts().messages());
            assertEquals(3, s.puts().latencyMicros().count());
            assertEquals(store.getMaxPhyOffset(), s.commitLog().maxOffset());
            assertEquals(List.of(new StatsSnapshot.QueueRange("Snap", 1, 0, 3)), s.queues());
            assertEquals(0, s.dispatch().behindBytes());
            assertEquals(s.puts().latencyMicros().count(), s.puts().latencyMicros().cumulativeBelow(39),
                    "the last bucket holds every recorded value");

            Map<String, Object> json = s.toMap();
            assertEquals(List.of("storePath", "providers", "runningFlags", "writable", "puts", "started", "commitLog",
                    "dispatch", "flush", "queues", "disk", "retention", "replication", "lastRecovery"),
                    List.copyOf(json.keySet()), "the JSON contract: field names and their order");
            assertEquals(3L, ((Map<?, ?>) json.get("puts")).get("messages"));
            assertEquals(store.getMaxPhyOffset(), ((Map<?, ?>) json.get("commitLog")).get("maxOffset"));
            assertEquals(Map.of("topic", "Snap", "queueId", 1, "minOffset", 0L, "maxOffset", 3L),
                    ((List<?>) json.get("queues")).get(0));
            assertFalse(((Map<?, ?>) json.get("lastRecovery")).containsKey("truncatedAt"), "a clean log has no cut");
        }
    }

    @Test
    void beforeStartOnlyTheConfigurationAndCountersAreThere() {
        DefaultMessageStore store = new DefaultMessageStore(TestStores.config(dir));
        StatsSnapshot s = store.statsSnapshot();
        assertFalse(s.started());
        assertNull(s.commitLog());
        assertNull(store.recoveryReport());
        assertEquals(List.of("storePath", "providers", "runningFlags", "writable", "puts", "started"),
                List.copyOf(s.toMap().keySet()));
    }
}
