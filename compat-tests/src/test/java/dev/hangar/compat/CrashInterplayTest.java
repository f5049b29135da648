package dev.hangar.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.compat.support.Await;
import dev.hangar.compat.support.CommitLogFiles;
import dev.hangar.compat.support.Dataset;
import dev.hangar.compat.support.Datasets;
import dev.hangar.compat.support.Findings;
import dev.hangar.compat.support.HangarSide;
import dev.hangar.compat.support.MessageSpec;
import dev.hangar.compat.support.RocketSide;
import dev.hangar.compat.support.StoreGeometry;
import dev.hangar.compat.support.StoreReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A directory one engine left as after a crash recovers in the other: (1) a clean shutdown, then the abort
 * marker created by hand and the last record torn in half; (2) a copy taken while the engine runs (abort marker
 * present, checkpoint and queues as they happened to be). The recovering engine keeps every whole message,
 * drops the torn one, and appends where it ended; the first engine then reads the result.
 *
 * <p>Note on the torn-record cases: RocketMQ 4.9.8's {@code ConsumeQueue.truncateDirtyLogicFiles} only moves the
 * write position back; the unit of the torn message stays on disk after it. When the CommitLog then grows past
 * that unit's offset (the message appended after recovery), the next engine to open the directory finds a unit
 * that starts inside the log but ends past its end. It must drop it: the queue must not count a message that is
 * not there (RocketMQ itself does not, and reports a negative dispatch lag).
 */
class CrashInterplayTest {
    private static final String HOST = StoreGeometry.IPV4_STORE_HOST;
    /** 201 puts: the last is a single 30 KB message (a torn record spans half a file). */
    private static final int PUTS = 201;
    /** A ConsumeQueue flush period (regular and full) longer than any test: no flush runs before the copy. */
    private static final int NO_FLUSH_WHILE_THE_TEST_RUNS_MS = 3_600_000;

    @TempDir
    Path dir;
    @TempDir
    Path running;

    @Test
    void rocketMqRecoversAHangarDirectoryWithAnAbortMarkerAndATornLastRecord() throws Exception {
        Dataset ds = Datasets.mixed("hangar-torn", "T", PUTS, HOST);
        try (HangarSide hangar = HangarSide.open(dir, HOST)) {
            hangar.write(ds);
            Await.dispatched(hangar, ds.queueCounts());
        }
        Findings findings = new Findings();
        Torn torn = tearLastRecord(ds);
        Dataset after = Datasets.mixed("rocketmq-after-recovery", "T", 1, HOST, 9000);
        try (RocketSide rocket = RocketSide.open(dir, HOST)) {
            checkRecovery(findings, rocket, torn);
            rocket.write(after);
        }
        Dataset all = Dataset.concat("the survivors + one message appended after recovery", torn.survivors(), after);
        try (HangarSide hangar = HangarSide.open(dir, HOST)) {
            checkAll(findings, hangar, all);
        }
        findings.assertNone();
    }

    @Test
    void hangarRecoversARocketMqDirectoryWithAnAbortMarkerAndATornLastRecord() throws Exception {
        Dataset ds = Datasets.mixed("rocketmq-torn", "U", PUTS, HOST);
        try (RocketSide rocket = RocketSide.open(dir, HOST)) {
            rocket.write(ds);
            Await.dispatched(rocket, ds.queueCounts());
        }
        Findings findings = new Findings();
        Torn torn = tearLastRecord(ds);
        Dataset after = Datasets.mixed("hangar-after-recovery", "U", 1, HOST, 9000);
        try (HangarSide hangar = HangarSide.open(dir, HOST)) {
            checkRecovery(findings, hangar, torn);
            hangar.write(after);
        }
        Dataset all = Dataset.concat("the survivors + one message appended after recovery", torn.survivors(), after);
        try (RocketSide rocket = RocketSide.open(dir, HOST)) {
            checkAll(findings, rocket, all);
        }
        findings.assertNone();
    }

    @Test
    void rocketMqRecoversACopyOfARunningHangarStore() throws Exception {
        rocketMqRecoversACopyOfHangarRunningWith(Datasets.mixed("hangar-running", "W", PUTS, HOST));
    }

    /**
     * The copy is taken before the ConsumeQueue flush thread ever ran, so it holds only what dispatch itself wrote to
     * the files. RocketMQ 4.9.8 re-dispatches what is missing during its recovery, before it loads its delay
     * levels; there it writes a delayed record's tag hash as the unit's tags code, not its deliver time. Hangar
     * must therefore have written the schedule topic's units itself, with their deliver times: this fails when
     * they wait in memory for the flush side (a new queue's first units do) or when Hangar wrote a wrong one.
     */
    @Test
    void rocketMqRecoversACopyOfARunningHangarStoreTakenBeforeAnyConsumeQueueFlush() throws Exception {
        Dataset ds = Datasets.mixed("hangar-running-unflushed", "V", PUTS, HOST);
        assertTrue(ds.queueCounts().keySet().stream().anyMatch(q -> q.startsWith(MessageSpec.SCHEDULE_TOPIC)),
                "the dataset holds delayed messages: " + ds.queueCounts().keySet());
        String never = Integer.toString(NO_FLUSH_WHILE_THE_TEST_RUNS_MS);
        rocketMqRecoversACopyOfHangarRunningWith(ds, "flushIntervalConsumeQueue", never,
                "flushConsumeQueueThoroughInterval", never);
    }

    /** Hangar (with {@code settings}) writes {@code ds}; RocketMQ opens a copy taken while it runs and holds it all. */
    private void rocketMqRecoversACopyOfHangarRunningWith(Dataset ds, String... settings) throws Exception {
        try (HangarSide hangar = HangarSide.open(running, HOST, settings)) {
            hangar.write(ds);
            Await.dispatched(hangar, ds.queueCounts());
            CommitLogFiles.copyStore(running, dir);
        }
        assertTrue(Files.exists(dir.resolve("abort")), "a copy of a running store carries the abort marker");
        Findings findings = new Findings();
        try (RocketSide rocket = RocketSide.open(dir, HOST)) {
            checkAll(findings, rocket, ds);
        }
        findings.assertNone();
    }

    @Test
    void hangarRecoversACopyOfARunningRocketMqStore() throws Exception {
        Dataset ds = Datasets.mixed("rocketmq-running", "X", PUTS, HOST);
        try (RocketSide rocket = RocketSide.open(running, HOST)) {
            rocket.write(ds);
            Await.dispatched(rocket, ds.queueCounts());
            CommitLogFiles.copyStore(running, dir);
        }
        assertTrue(Files.exists(dir.resolve("abort")), "a copy of a running store carries the abort marker");
        Findings findings = new Findings();
        try (HangarSide hangar = HangarSide.open(dir, HOST)) {
            checkAll(findings, hangar, ds);
        }
        findings.assertNone();
    }

    /** What survives a torn last record: the dataset without it, its records, and where the torn one began. */
    private record Torn(Dataset survivors, List<CommitLogFiles.Entry> records, long tornAt) {
    }

    /** Creates the abort marker and tears the last record in half. */
    private Torn tearLastRecord(Dataset ds) throws Exception {
        assertFalse(ds.puts().get(ds.puts().size() - 1).batch(), "the torn put must be a single message");
        List<CommitLogFiles.Entry> records = CommitLogFiles.records(dir);
        assertEquals(ds.messages().size(), records.size(), "every message is in the commit log before the crash");
        CommitLogFiles.Entry last = records.get(records.size() - 1);
        CommitLogFiles.createAbortFile(dir);
        CommitLogFiles.zeroFromMiddleOf(dir, last, StoreGeometry.COMMIT_LOG_FILE_SIZE);
        return new Torn(ds.withoutLastPut(), records.subList(0, records.size() - 1), last.offset());
    }

    /** The recovering engine holds exactly the survivors, and the commit log ends where the torn record began. */
    private void checkRecovery(Findings findings, StoreReader reader, Torn torn) {
        Dataset recovered = torn.survivors();
        long tornAt = torn.tornAt();
        String step = reader.engine() + " recovers a torn directory the other engine wrote";
        Await.dispatched(reader, recovered.queueCounts());
        findings.holds(step, Findings.snapshot(reader, recovered, torn.records()), recovered, torn.records(), false);
        findings.check(step, reader.maxPhyOffset() == tornAt, "max commit-log offset " + reader.maxPhyOffset()
                + ", expected the start of the torn record " + tornAt);
        findings.check(step, reader.lookByOffset(tornAt) == null, "the torn record at " + tornAt + " is still readable");
    }

    /** {@code reader} holds exactly {@code all}: every record, queue offset and (at least partly) every key. */
    private void checkAll(Findings findings, StoreReader reader, Dataset all) {
        Await.dispatched(reader, all.queueCounts());
        List<CommitLogFiles.Entry> records = new ArrayList<>(CommitLogFiles.records(dir));
        String step = reader.engine() + " reads " + all.name();
        findings.holds(step, Findings.snapshot(reader, all, records), all, records, false);
    }
}
