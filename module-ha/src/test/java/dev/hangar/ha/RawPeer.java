package dev.hangar.ha;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;

/** A hand-driven HA peer for tests: writes raw bytes to a master's HA port and reads its frames. */
final class RawPeer implements AutoCloseable {
    final Socket socket = new Socket();
    private final OutputStream out;
    private final DataInputStream in;

    RawPeer(String address) throws IOException {
        this(address, null);
    }

    /** Connects from {@code sourceHost} (e.g. 127.0.0.2: on Linux every 127/8 address is local), or any when null. */
    RawPeer(String address, String sourceHost) throws IOException {
        if (sourceHost != null) {
            socket.bind(new InetSocketAddress(sourceHost, 0));
        }
        int colon = address.lastIndexOf(':');
        socket.connect(new InetSocketAddress(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1))));
        socket.setSoTimeout(60_000);
        out = socket.getOutputStream();
        in = new DataInputStream(socket.getInputStream());
    }

    void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    void report(long offset) throws IOException {
        send(ByteBuffer.allocate(8).putLong(offset).array());
    }

    /** Reads one frame: its offset and body. */
    Frame readFrame() throws IOException {
        long offset = in.readLong();
        int size = in.readInt();
        byte[] body = new byte[size];
        in.readFully(body);
        return new Frame(offset, body);
    }

    /** True once the master has closed the connection (reads to the end, discarding). */
    boolean closedByMaster() {
        try {
            byte[] sink = new byte[65536];
            while (in.read(sink) >= 0) {
                // drain
            }
            return true;
        } catch (IOException e) {
            return true; // reset by the master
        }
    }

    /**
     * Bytes received until the master closed the connection (end of stream or a reset); fails when it stays open for
     * {@code seconds}, which an accepted peer does (the master keeps it open and sends heartbeats).
     */
    int bytesUntilClosed(int seconds) throws IOException {
        socket.setSoTimeout(seconds * 1000);
        int total = 0;
        byte[] sink = new byte[65536];
        try {
            for (int n; (n = in.read(sink)) >= 0; ) {
                total += n;
            }
        } catch (java.net.SocketTimeoutException e) {
            throw new AssertionError("the master kept the connection open for " + seconds + " s and sent " + total
                    + " bytes", e);
        } catch (IOException e) {
            // reset by the master: closed
        }
        return total;
    }

    record Frame(long offset, byte[] body) {
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
