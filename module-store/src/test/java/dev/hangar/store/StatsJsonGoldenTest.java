package dev.hangar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The JSON form of {@link StatsSnapshot} (the {@code stat --json} and {@code /v1/stats} contract) of hand-built
 * snapshots, field for field and in order, for every field that is left out, derived or rounded. The expected texts
 * were printed by the field-by-field {@code toMap} methods this replaced: a renamed, lost, reordered or extra field
 * fails here.
 */
class StatsJsonGoldenTest {
    private static final StatsSnapshot.Latency LATENCY = new StatsSnapshot.Latency(7, 1, 2, 3, 4, 99,
            List.of(0L, 7L));

    private static StatsSnapshot snapshot(boolean started, boolean problems) {
        StatsSnapshot.Puts puts = new StatsSnapshot.Puts(10, 2000, Map.of("MESSAGE_ILLEGAL", 1L), LATENCY, 5, 6, 9);
        if (!started) {
            return new StatsSnapshot("/s", Map.of("lock", "spin"), List.of(), !problems,
                    problems ? "disk full" : null, puts, false, null, null, null, List.of(), null, null, null, null);
        }
        Map<String, StatsSnapshot.Plugin> plugins = Map.of("p", new StatsSnapshot.Plugin(problems ? "disabled" : "running",
                100, 5, 1, problems ? 2 : 0, problems ? "threw" : null));
        return new StatsSnapshot("/s", Map.of("lock", "spin"), List.of("flag"), true, null, puts, true,
                new StatsSnapshot.CommitLog(1, 200, 250, 190, 180, 2, 1024, 4096),
                new StatsSnapshot.Dispatch(200, 0, 9, 3, 1, List.of("consume-queue"), 1, Map.of("index", 1L),
                        plugins),
                new StatsSnapshot.Flush(11, 12, 13, 14, 15, 16, 1.5, 17, 18, 19, 20, LATENCY),
                List.of(new StatsSnapshot.QueueRange("T", 1, 0, 3)),
                new StatsSnapshot.Disk(1000, 400, 300, 0.61234, 75, 85, 90, problems ? true : null,
                        problems ? false : null, problems ? true : null),
                new StatsSnapshot.Retention(72, List.of(4), 10_000, true, 3, 12, 1, 0),
                new StatsSnapshot.Replication(problems ? "SLAVE" : "ASYNC_MASTER", problems, problems ? null : "x",
                        "m:1", 1, 150, 50, 7, 1000, 2, problems ? "lagging" : null),
                new StatsSnapshot.Recovery(problems, 0, 2, 30, 200, 1, 4, 55, problems ? "crc at 180" : null));
    }

    @Test
    void aStoreNotStartedShowsItsConfigurationAndCounters() {
        assertEquals("{storePath=/s, providers={lock=spin}, runningFlags=[], writable=true, puts={messages=10, "
                + "bytes=2000, failures={MESSAGE_ILLEGAL=1}, latencyMicros={count=7, p50=1, p99=2, p999=3, max=4}, "
                + "getFound=5, getMiss=6}, started=false}", snapshot(false, false).toMap().toString());
        assertEquals("{storePath=/s, providers={lock=spin}, runningFlags=[], writable=false, notWritableReason=disk "
                + "full, puts={messages=10, bytes=2000, failures={MESSAGE_ILLEGAL=1}, latencyMicros={count=7, p50=1, "
                + "p99=2, p999=3, max=4}, getFound=5, getMiss=6}, started=false}",
                snapshot(false, true).toMap().toString());
    }

    @Test
    void aStartedStoreShowsEveryPartWithItsOwnFields() {
        assertEquals("{storePath=/s, providers={lock=spin}, runningFlags=[flag], writable=true, puts={messages=10, "
                + "bytes=2000, failures={MESSAGE_ILLEGAL=1}, latencyMicros={count=7, p50=1, p99=2, p999=3, max=4}, "
                + "getFound=5, getMiss=6}, started=true, commitLog={minOffset=1, maxOffset=200, writtenOffset=250, "
                + "commitLagBytes=50, flushedOffset=190, committedOffset=180, files=2, fileSize=1024, "
                + "mappedBytes=4096}, dispatch={dispatchedOffset=200, behindBytes=0, dispatched=9, "
                + "backPressureWaits=3, backPressureWaitsOutlasted=1, dispatchers=[consume-queue], "
                + "threads=1, failures={index=1}, plugins={p={state=running, offset=100, lagBytes=5, skippedBytes=1, "
                + "failures=0}}}, flush={flushes=11, flushedBytes=12, bytesPerFlush=13, failures=14, commits=15, "
                + "groupCommits=16, requestsPerGroupCommit=1.5, groupCommitPuts=17, "
                + "groupCommitPutsWaitedMoreThanOneForce=18, gathers=19, gathersBoundRanOut=20, "
                + "fsyncLatencyMicros={count=7, p50=1, p99=2, p999=3, max=4}}, queues=[{topic=T, queueId=1, "
                + "minOffset=0, maxOffset=3}], disk={totalBytes=1000, freeBytes=400, usableBytes=300, "
                + "usedRatio=0.612, maxUsedPercent=75, cleanForciblyPercent=85, warningPercent=90}, "
                + "retention={fileReservedHours=72, deleteHours=[4], cleanIntervalMillis=10000, "
                + "cleanFileForciblyEnable=true, filesDeleted=3, lastPassMillis=12, lastPassDeleted=1, "
                + "manualPassesLeft=0}, replication={role=ASYNC_MASTER, enabled=false}, lastRecovery={abnormal=false, "
                + "filesScanned=2, messagesScanned=30, endOffset=200, filesDropped=1, redispatched=4, millis=55}}",
                snapshot(true, false).toMap().toString());
    }

    @Test
    void problemsAddTheirFields() {
        Map<String, Object> json = snapshot(true, true).toMap();
        assertEquals("{p={state=disabled, offset=100, lagBytes=5, skippedBytes=1, failures=2, disabledReason=threw}}",
                ((Map<?, ?>) json.get("dispatch")).get("plugins").toString());
        assertEquals("{totalBytes=1000, freeBytes=400, usableBytes=300, usedRatio=0.612, maxUsedPercent=75, "
                + "cleanForciblyPercent=85, warningPercent=90, full=true, cleanImmediately=false, "
                + "spaceToDelete=true}", json.get("disk").toString());
        assertEquals("{role=SLAVE, enabled=true, listenAddress=null, masterAddress=m:1, connectedSlaves=1, "
                + "ackedOffset=150, lagBytes=50, lagMillis=7, bytesPerSecond=1000, rejectedConnections=2, "
                + "problem=lagging}", json.get("replication").toString());
        assertEquals("{abnormal=true, filesScanned=2, messagesScanned=30, endOffset=200, filesDropped=1, "
                + "redispatched=4, millis=55, truncatedAt=crc at 180}", json.get("lastRecovery").toString());
    }
}
