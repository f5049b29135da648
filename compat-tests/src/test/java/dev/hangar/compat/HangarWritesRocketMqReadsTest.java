package dev.hangar.compat;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.compat.support.Await;
import dev.hangar.compat.support.CommitLogFiles;
import dev.hangar.compat.support.Dataset;
import dev.hangar.compat.support.Datasets;
import dev.hangar.compat.support.Findings;
import dev.hangar.compat.support.HangarSide;
import dev.hangar.compat.support.RocketSide;
import dev.hangar.compat.support.StoreGeometry;
import dev.hangar.compat.support.StoreSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A directory written by Hangar and shut down cleanly opens in Apache RocketMQ 4.9.8's DefaultMessageStore,
 * which finds every message by queue offset, commit-log offset, msgId and key, exactly as Hangar wrote it.
 */
class HangarWritesRocketMqReadsTest {
    @TempDir
    Path dir;

    @Test
    void rocketMqReadsEverythingHangarWroteWithAnIpv4StoreHost() throws Exception {
        roundTrip(Datasets.mixed("hangar-ipv4", "H", 420, StoreGeometry.IPV4_STORE_HOST));
    }

    @Test
    void rocketMqReadsEverythingHangarWroteWithAnIpv6StoreHost() throws Exception {
        roundTrip(Datasets.mixed("hangar-ipv6", "S", 260, StoreGeometry.IPV6_STORE_HOST));
    }

    @Test
    void rocketMqReadsEverythingHangarWroteThroughItsTransientStorePool() throws Exception {
        roundTrip(Datasets.mixed("hangar-transient-pool", "P", 200, StoreGeometry.IPV4_STORE_HOST),
                "mappedFile", "transient-pool", "transientStorePoolSize", "3");
    }

    @Test
    void rocketMqReadsEverythingHangarWroteThroughItsWriteWindowWithSyncFlush() throws Exception {
        roundTrip(Datasets.mixed("hangar-write-window", "W", 200, StoreGeometry.IPV4_STORE_HOST),
                "mappedFile", "write-window", "flushDiskType", "SYNC_FLUSH");
    }

    private void roundTrip(Dataset ds, String... hangarConfig) throws Exception {
        Findings findings = new Findings();
        List<CommitLogFiles.Entry> records;
        StoreSnapshot hangarRead;
        try (HangarSide hangar = HangarSide.open(dir, ds.storeHost(), hangarConfig)) {
            hangar.write(ds);
            Await.dispatched(hangar, ds.queueCounts());
            records = CommitLogFiles.records(dir);
            hangarRead = Findings.snapshot(hangar, ds, records);
        }
        findings.holds("Hangar reads its own store", hangarRead, ds, records, true);
        findings.timeSearch("Hangar searches its own store by time", hangarRead);
        findings.check("Hangar shutdown", !Files.exists(dir.resolve("abort")),
                "a clean Hangar shutdown left the abort file: RocketMQ will recover as after a crash");
        long blanks = CommitLogFiles.walk(dir).stream().filter(CommitLogFiles.Entry::blank).count();
        assertTrue(blanks >= 5, "the dataset must roll several CommitLog files, each ending in a BLANK; saw " + blanks);

        try (RocketSide rocket = RocketSide.open(dir, ds.storeHost())) {
            Await.dispatched(rocket, ds.queueCounts());
            StoreSnapshot rocketRead = Findings.snapshot(rocket, ds, records);
            findings.holds("RocketMQ 4.9.8 reads the store Hangar wrote", rocketRead, ds, records, true);
            findings.same("RocketMQ's reads vs Hangar's reads of the same store", hangarRead, rocketRead);
        }
        findings.assertNone();
    }
}
