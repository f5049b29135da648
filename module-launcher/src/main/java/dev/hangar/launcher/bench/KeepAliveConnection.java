package dev.hangar.launcher.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP/1.1 keep-alive connection, used the way a blocking client uses it: one request, then its answer, then
 * the next request on the same socket. It speaks only what {@code serve} answers with: a status line, headers and
 * a body of {@code Content-Length} bytes (or none). Small on purpose: a benchmark must measure the server, not
 * its client's thread hand-offs.
 *
 * <p>Not thread-safe: one thread per connection.
 */
public final class KeepAliveConnection implements AutoCloseable {
    /** An answer: status code, headers by lower-case name, body. */
    public record Response(int status, Map<String, String> headers, byte[] body) {
        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final String hostHeader;

    /** Connects with TCP_NODELAY, as every common HTTP client does. */
    public KeepAliveConnection(String host, int port) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress(host, port), 10_000);
        socket.setSoTimeout(60_000);
        in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
        out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
        hostHeader = host.contains(":") ? "[" + host + "]:" + port : host + ":" + port;
    }

    /**
     * Sends one request and reads its answer.
     *
     * @param pathAndQuery already encoded
     * @param body         null for none
     * @param headers      extra request headers
     */
    public Response exchange(String method, String pathAndQuery, byte[] body, Map<String, String> headers)
            throws IOException {
        StringBuilder head = new StringBuilder(256).append(method).append(' ').append(pathAndQuery)
                .append(" HTTP/1.1\r\nHost: ").append(hostHeader).append("\r\n");
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        if (body != null) {
            head.append("Content-Length: ").append(body.length).append("\r\n");
        }
        head.append("\r\n");
        out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        if (body != null) {
            out.write(body);
        }
        out.flush();
        return readResponse();
    }

    private Response readResponse() throws IOException {
        String statusLine = readLine();
        if (!statusLine.startsWith("HTTP/1.1 ") || statusLine.length() < 12) {
            throw new IOException("not an HTTP/1.1 status line: " + statusLine);
        }
        int status = Integer.parseInt(statusLine.substring(9, 12));
        Map<String, String> headers = new LinkedHashMap<>();
        for (String line = readLine(); !line.isEmpty(); line = readLine()) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
            }
        }
        String length = headers.get("content-length");
        if (length == null) {
            if (headers.containsKey("transfer-encoding")) {
                throw new IOException("a chunked answer: this client reads only Content-Length bodies");
            }
            return new Response(status, headers, new byte[0]);
        }
        byte[] body = in.readNBytes(Integer.parseInt(length));
        if (body.length < Integer.parseInt(length)) {
            throw new EOFException("the answer ended after " + body.length + " of " + length + " body bytes");
        }
        return new Response(status, headers, body);
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(128);
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("the server closed the connection");
            }
            if (b == '\n') {
                break;
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    /** The local port: two answers over the same port came over the same connection. */
    public int localPort() {
        return socket.getLocalPort();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
