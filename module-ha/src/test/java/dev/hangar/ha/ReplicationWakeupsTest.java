package dev.hangar.ha;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.config.AddressRanges;
import dev.hangar.spi.ha.BrokerRole;
import dev.hangar.spi.store.PutMessageStatus;
import java.io.DataInputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * What one shipped put costs the threads that replicate it, counted (not timed): a master connection thread and a
 * slave client over loopback, on in-memory logs, with puts one at a time, each waited for on the slave, so every put
 * is a wake-up of its own on both sides (the paced ASYNC_MASTER load of the replication benchmark, at its worst).
 */
class ReplicationWakeupsTest {
    private static final int PUTS = 200;
    private static final int PUT_BYTES = 1024;

    private static HaSettings settings(String masterAddress) {
        return new HaSettings("127.0.0.1", 0, masterAddress, 5_000, 20_000, 32 * 1024, 256L * 1024 * 1024, 10_000,
                AddressRanges.parse(""));
    }

    @Test
    void anAsyncMastersConnectionIsNotWokenByTheSlavesReportsYetStillReadsThem() throws Exception {
        MemoryLog masterLog = new MemoryLog();
        MemoryLog slaveLog = new MemoryLog();
        MasterReplicationService master = new MasterReplicationService(BrokerRole.ASYNC_MASTER, settings(""), masterLog);
        master.start();
        HaClient slave = new HaClient(settings(master.status().listenAddress()), slaveLog);
        try {
            slave.start();
            await("the slave's first report is read", () -> master.status().ackedOffset() >= 0);
            long wokenByReportsBefore = master.readableWakeups();
            long end = 0;
            for (int i = 0; i < PUTS; i++) {
                end = masterLog.put(PUT_BYTES, (byte) i);
                assertEquals(PutMessageStatus.PUT_OK, master.handle(end, false).join());
                long want = end;
                await("the slave holds put " + i, () -> slaveLog.maxOffset() == want);
            }
            // the slave reported after every put (RocketMQ's slaves do too): none of those reports woke the master
            assertEquals(0, master.readableWakeups() - wokenByReportsBefore,
                    "wake-ups of an ASYNC_MASTER's connection thread by the slave's reports");
            long last = end;
            await("the master reads the slave's reports anyway (acknowledged " + master.status().ackedOffset()
                    + " of " + last + ")", () -> master.status().ackedOffset() == last);
            assertArrayEquals(masterLog.copy(), slaveLog.copy());
            // a slave woken for one frame reads it, reports, and sleeps: no second read that finds nothing
            assertEquals(0, slave.emptyReadsAfterData(), "empty socket reads right after a read with data");
        } finally {
            slave.shutdown();
            master.shutdown();
        }
    }

    @Test
    void aSyncMastersConnectionIsWokenByEachReportSoEveryPutIsReleased() throws Exception {
        MemoryLog masterLog = new MemoryLog();
        MemoryLog slaveLog = new MemoryLog();
        MasterReplicationService master = new MasterReplicationService(BrokerRole.SYNC_MASTER, settings(""), masterLog);
        master.start();
        HaClient slave = new HaClient(settings(master.status().listenAddress()), slaveLog);
        try {
            slave.start();
            await("the slave's first report is read", () -> master.status().ackedOffset() >= 0);
            long wokenByReportsBefore = master.readableWakeups();
            for (int i = 0; i < PUTS; i++) {
                long end = masterLog.put(PUT_BYTES, (byte) i);
                CompletableFuture<PutMessageStatus> acked = master.handle(end, true);
                assertEquals(PutMessageStatus.PUT_OK, acked.get(60, TimeUnit.SECONDS), "put " + i);
            }
            // each put waited for a report, which the sleeping connection thread had to wake up for
            assertTrue(master.readableWakeups() - wokenByReportsBefore >= PUTS / 2,
                    "wake-ups by reports: " + (master.readableWakeups() - wokenByReportsBefore) + " for " + PUTS
                            + " puts that each waited for one");
            assertArrayEquals(masterLog.copy(), slaveLog.copy());
            assertEquals(0, slave.emptyReadsAfterData(), "empty socket reads right after a read with data");
        } finally {
            slave.shutdown();
            master.shutdown();
        }
    }

    @Test
    void oneLazyPassOfAnAsyncMasterReadsAPileOfReportsUpToTheNewest() throws Exception {
        MemoryLog masterLog = new MemoryLog();
        int reports = 2_000; // 16 000 bytes: far more than one read of the report buffer takes
        long end = masterLog.put(reports, (byte) 3);
        MasterReplicationService master = new MasterReplicationService(BrokerRole.ASYNC_MASTER, settings(""), masterLog);
        master.start();
        try (RawPeer slave = new RawPeer(master.status().listenAddress())) {
            slave.report(0);
            long received = 0;
            while (received < end) {
                RawPeer.Frame f = slave.readFrame();
                assertEquals(received, f.offset(), "frames arrive in order");
                received += f.body().length;
            }
            await("the slave's first report is read", () -> master.status().ackedOffset() == 0);
            long passesBefore = master.reportPasses();
            // a slave that reported faster than the lazy reads came by: the reports piled up in the socket, and
            // one write puts them there all at once (one loopback segment)
            ByteBuffer pile = ByteBuffer.allocate(reports * HaFrameFormat.REPORT_SIZE);
            for (int i = 1; i <= reports; i++) {
                pile.putLong(i);
            }
            slave.send(pile.array());
            await("the master acknowledges the newest report (acknowledged " + master.status().ackedOffset()
                    + " of " + end + ")", () -> master.status().ackedOffset() == end);
            // one pass read them all: reading one buffer per pass left the acknowledged offset ever further behind
            assertEquals(1, master.reportPasses() - passesBefore,
                    "lazy passes that read reports until the newest of " + reports + " was acknowledged");
        } finally {
            master.shutdown();
        }
    }

    @Test
    void anAsyncMasterShipsThePutsOfOneGatheringNapAsOneFrame() throws Exception {
        MemoryLog masterLog = new MemoryLog();
        MemoryLog slaveLog = new MemoryLog();
        // a nap far longer than the puts below take, so the count does not depend on this machine's speed
        long nap = TimeUnit.MILLISECONDS.toNanos(500);
        MasterReplicationService master = new MasterReplicationService(BrokerRole.ASYNC_MASTER, settings(""),
                masterLog, nap);
        master.start();
        HaClient slave = new HaClient(settings(master.status().listenAddress()), slaveLog);
        try {
            slave.start();
            await("the slave's first report is read", () -> master.status().ackedOffset() >= 0);
            long first = masterLog.put(100, (byte) 1);
            master.handle(first, false).join();
            await("the slave holds the first put (a put after a quiet spell wakes the master)",
                    () -> slaveLog.maxOffset() == first);
            long framesBefore = master.dataFrames();
            // 100 puts, 100 µs apart: without gathering each woke the connection thread and went out as a frame
            long end = first;
            for (int i = 0; i < 100; i++) {
                end = masterLog.put(100, (byte) i);
                master.handle(end, false).join();
                long until = System.nanoTime() + 100_000;
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
            }
            long last = end;
            await("the slave holds all 101 puts", () -> slaveLog.maxOffset() == last);
            long frames = master.dataFrames() - framesBefore;
            assertTrue(frames >= 1 && frames <= 3, "frames for 100 puts made within one gathering nap: " + frames);
            assertArrayEquals(masterLog.copy(), slaveLog.copy());
        } finally {
            slave.shutdown();
            master.shutdown();
        }
    }

    @Test
    void aBacklogShipsWithoutGatheringNaps() throws Exception {
        MemoryLog masterLog = new MemoryLog();
        MemoryLog slaveLog = new MemoryLog();
        // 2 MiB before the slave connects: 64 full frames; a nap of 500 ms between bursts of them would take seconds
        long end = masterLog.put(2 * 1024 * 1024, (byte) 7);
        MasterReplicationService master = new MasterReplicationService(BrokerRole.ASYNC_MASTER, settings(""),
                masterLog, TimeUnit.MILLISECONDS.toNanos(500));
        master.start();
        HaClient slave = new HaClient(settings(master.status().listenAddress()), slaveLog);
        try {
            slave.start();
            await("the slave holds the backlog", () -> slaveLog.maxOffset() == end);
            // at most the one nap after the last (partial) frame: none while full frames were going out
            assertTrue(master.naps() <= 1, "gathering naps while shipping a backlog of 64 full frames: "
                    + master.naps());
            assertArrayEquals(masterLog.copy(), slaveLog.copy());
        } finally {
            slave.shutdown();
            master.shutdown();
        }
    }

    @Test
    void theFramesOneReadBringsAreAppendedToTheSlavesLogInOneAppend() throws Exception {
        MemoryLog slaveLog = new MemoryLog();
        int frames = 10;
        int body = 700;
        try (ServerSocket fakeMaster = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            HaClient slave = new HaClient(settings("127.0.0.1:" + fakeMaster.getLocalPort()), slaveLog);
            try {
                slave.start();
                try (Socket link = fakeMaster.accept()) {
                    DataInputStream reports = new DataInputStream(link.getInputStream());
                    assertEquals(0, reports.readLong(), "an empty slave reports offset 0");
                    // ten consecutive frames in one write: they arrive together, and one read takes them all
                    ByteBuffer burst = ByteBuffer.allocate(frames * (HaFrameFormat.HEADER_SIZE + body));
                    byte[] expected = new byte[frames * body];
                    for (int f = 0; f < frames; f++) {
                        burst.putLong((long) f * body).putInt(body);
                        for (int i = 0; i < body; i++) {
                            byte b = (byte) (f * 31 + i);
                            burst.put(b);
                            expected[f * body + i] = b;
                        }
                    }
                    link.getOutputStream().write(burst.array());
                    link.getOutputStream().flush();
                    assertEquals((long) frames * body, reports.readLong(), "the slave reports the ten frames' end");
                    assertArrayEquals(expected, slaveLog.copy());
                    assertEquals(1, slaveLog.appends(), "appends to the slave's log for " + frames
                            + " frames read at once");
                }
            } finally {
                slave.shutdown();
            }
        }
    }

    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after 60 s waiting for: " + what);
            }
            LockSupport.parkNanos(20_000);
        }
    }
}
