package dev.hangar.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A slave whose master sent only part of a record (frames may end anywhere): until the rest arrives, nothing can be
 * dispatched, and the slave's dispatch thread must sleep, not re-scan the cut record in a loop (it did: being
 * "behind" kept it from parking, and on two cores the spinning took the CPU from the HA client bringing the rest).
 * A hand-written master sends the two halves, so where the cut lies is certain.
 */
class SlaveBetweenFramesTest {
    @TempDir
    Path dir;

    @Test
    void aSlaveWaitingForTheRestOfARecordSleepsAndDispatchesItWhenItArrives() throws Exception {
        // one real record, from a store of its own
        long end;
        byte[] record;
        try (DefaultMessageStore source = HaStores.started(dir.resolve("source"))) {
            PutMessageResult r = source.putMessage(HaStores.message("Cut", 0, "the record the master sends in two"));
            assertEquals(PutMessageStatus.PUT_OK, r.status());
            end = r.appendResult().wroteOffset() + r.appendResult().wroteBytes();
        }
        record = HaStores.bytesBelow(HaStores.commitLogFiles(dir.resolve("source"), end).get(0), end);
        assertEquals(end, record.length, "the record starts the log");
        int half = record.length / 2;

        try (ServerSocket fakeMaster = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String address = "127.0.0.1:" + fakeMaster.getLocalPort();
            try (DefaultMessageStore slave = HaStores.slave(dir.resolve("slave"), address,
                    "haHousekeepingInterval", "60000");
                 Socket link = fakeMaster.accept()) {
                DataInputStream reports = new DataInputStream(link.getInputStream());
                assertEquals(0, reports.readLong(), "an empty slave reports offset 0");
                OutputStream out = link.getOutputStream();
                send(out, 0, Arrays.copyOfRange(record, 0, half));
                HaStores.await("the slave holds the first half", () -> slave.getMaxPhyOffset() == half);

                Thread reput = reputThread();
                HaStores.await("the slave's dispatch thread sleeps while the record is cut (state now "
                        + reput.getState() + ")", () -> reput.getState() == Thread.State.TIMED_WAITING
                        || reput.getState() == Thread.State.WAITING);
                assertTrue(slave.dispatchBehindBytes() > 0, "the cut record is visible but not dispatched");

                send(out, half, Arrays.copyOfRange(record, half, record.length));
                HaStores.await("the slave dispatches the whole record", () -> slave.getMaxPhyOffset() == end
                        && slave.dispatchBehindBytes() == 0);
                assertEquals("the record the master sends in two", new String(slave.lookMessageByOffset(0).body()));
            }
        }
    }

    private static void send(OutputStream out, long offset, byte[] body) throws Exception {
        ByteBuffer header = ByteBuffer.allocate(HaFrameFormat.HEADER_SIZE);
        HaFrameFormat.putHeader(header, offset, body.length);
        out.write(header.array());
        out.write(body);
        out.flush();
    }

    /** The one store's dispatch thread (the source store is closed, so the slave's is the only one). */
    private static Thread reputThread() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("hangar-reput"))
                .filter(Thread::isAlive).reduce((a, b) -> {
                    throw new IllegalStateException("more than one hangar-reput thread: " + a + ", " + b);
                }).orElseThrow(() -> new IllegalStateException("no hangar-reput thread"));
    }
}
