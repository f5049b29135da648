package dev.hangar.ha;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The slave appends a frame's body as its bytes arrive, straight from its socket buffer, so one frame may become
 * several appends and one read may hold the end of one frame, a whole next frame and the start of a third. A
 * hand-written master sends two frames of real records cut at awkward places (inside the first header, inside
 * each body, across the frame boundary), waiting in between, and checks that the slave holds exactly the bytes sent
 * so far, reports them, and ends byte-identical with a dispatched log.
 */
class FrameInPiecesTest {
    @TempDir
    Path dir;

    @Test
    void aFrameArrivingInPiecesIsAppendedPieceByPieceAndTheLogMatchesByteForByte() throws Exception {
        long end;
        try (DefaultMessageStore source = HaStores.started(dir.resolve("source"))) {
            for (int i = 0; i < 12; i++) {
                PutMessageResult r = source.putMessage(HaStores.message("Pieces", i % 2, "piece " + i + " ".repeat(i * 13)));
                assertEquals(PutMessageStatus.PUT_OK, r.status());
            }
            end = source.getMaxPhyOffset();
        }
        byte[] log = HaStores.bytesBelow(HaStores.commitLogFiles(dir.resolve("source"), end).get(0), end);
        int split = log.length / 2 + 7; // two frames, the boundary inside a record
        byte[] wire = concat(frame(0, Arrays.copyOfRange(log, 0, split)),
                frame(split, Arrays.copyOfRange(log, split, log.length)));
        // cut points in wire bytes: inside the first header, inside the first body, 5 bytes into the second
        // header (so one write holds the end of the first body and the start of the next header), inside its body
        int[] cuts = {5, HaFrameFormat.HEADER_SIZE + 40, HaFrameFormat.HEADER_SIZE + split + 5,
                2 * HaFrameFormat.HEADER_SIZE + split + 31, wire.length};

        try (ServerSocket fakeMaster = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            try (DefaultMessageStore slave = HaStores.slave(dir.resolve("slave"), "127.0.0.1:" + fakeMaster.getLocalPort(),
                    "haHousekeepingInterval", "60000");
                 Socket link = fakeMaster.accept()) {
                link.setSoTimeout(60_000); // a report that never comes fails the test instead of hanging it
                DataInputStream reports = new DataInputStream(link.getInputStream());
                assertEquals(0, reports.readLong(), "an empty slave reports offset 0");
                OutputStream out = link.getOutputStream();
                int sent = 0;
                for (int cut : cuts) {
                    out.write(wire, sent, cut - sent);
                    out.flush();
                    sent = cut;
                    long held = logBytesIn(sent, split);
                    HaStores.await("the slave holds the " + held + " log bytes sent so far (it holds "
                            + slave.getMaxPhyOffset() + ")", () -> slave.getMaxPhyOffset() == held);
                    if (held > 0) {
                        long reported;
                        do {
                            reported = reports.readLong();
                        } while (reported < held);
                        assertEquals(held, reported, "the slave reports what it holds, no more");
                    }
                }
                HaStores.await("the slave dispatches all 12 records", () -> slave.dispatchBehindBytes() == 0
                        && slave.getMaxOffsetInQueue("Pieces", 0) + slave.getMaxOffsetInQueue("Pieces", 1) == 12);
            }
        }
        assertArrayEquals(log, HaStores.bytesBelow(HaStores.commitLogFiles(dir.resolve("slave"), end).get(0), end));
    }

    /** Log bytes within the first {@code wireBytes} bytes of the two frames (bodies of split and the rest). */
    private static long logBytesIn(int wireBytes, int split) {
        int h = HaFrameFormat.HEADER_SIZE;
        if (wireBytes <= h) {
            return 0;
        }
        if (wireBytes <= h + split + h) {
            return Math.min(wireBytes - h, split);
        }
        return split + (wireBytes - h - split - h);
    }

    private static byte[] frame(long offset, byte[] body) {
        ByteBuffer b = ByteBuffer.allocate(HaFrameFormat.HEADER_SIZE + body.length);
        b.putLong(offset).putInt(body.length).put(body);
        return b.array();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
