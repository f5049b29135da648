package dev.hangar.ha;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP relay between a slave and its master that cuts the first {@code drops} connections after a random number
 * of master-to-slave bytes (so mid-frame, mid-record), as a flaky network would.
 */
final class DroppingProxy implements AutoCloseable {
    private final ServerSocket server;
    private final String target;
    private final int drops;
    private final Random random = new Random(42);
    final AtomicInteger connections = new AtomicInteger();
    final AtomicInteger dropped = new AtomicInteger();

    DroppingProxy(String target, int drops) throws IOException {
        this.target = target;
        this.drops = drops;
        this.server = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::accept, "dropping-proxy");
        t.setDaemon(true);
        t.start();
    }

    String address() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket slave = server.accept();
                int colon = target.lastIndexOf(':');
                Socket master = new Socket();
                master.connect(new InetSocketAddress(target.substring(0, colon),
                        Integer.parseInt(target.substring(colon + 1))));
                int n = connections.incrementAndGet();
                long cutAfter = n <= drops ? 1 + random.nextInt(200_000) : Long.MAX_VALUE;
                pipe(slave, master, Long.MAX_VALUE, null);
                pipe(master, slave, cutAfter, new Socket[] {slave, master});
            } catch (IOException e) {
                return;
            }
        }
    }

    private void pipe(Socket from, Socket to, long cutAfter, Socket[] cut) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[8192];
            long moved = 0;
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int r;
                while ((r = in.read(buf)) >= 0) {
                    int n = (int) Math.min(r, cutAfter - moved);
                    out.write(buf, 0, n);
                    moved += n;
                    if (moved >= cutAfter) {
                        dropped.incrementAndGet();
                        for (Socket s : cut) {
                            s.close();
                        }
                        return;
                    }
                }
            } catch (IOException e) {
                // the other direction closed
            } finally {
                try {
                    from.close();
                    to.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
        }, "dropping-proxy-pipe");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
