package dev.hangar.launcher.http;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Strict percent-decoding of request URIs (RFC 3986): the raw path is split on '/' before decoding, so an encoded
 * {@code %2F} stays inside its segment (a key may contain a slash), and a malformed escape or invalid UTF-8 is a
 * 400 rather than a silently replaced character. Stateless and thread-safe.
 */
final class UriCodec {
    private UriCodec() {
    }

    /** The decoded segments of a raw path, without the empty one before the leading '/'. */
    static List<String> pathSegments(String rawPath) {
        List<String> segments = new ArrayList<>();
        if (rawPath == null || rawPath.isEmpty() || rawPath.equals("/")) {
            return segments;
        }
        String path = rawPath.startsWith("/") ? rawPath.substring(1) : rawPath;
        // a trailing slash names the same resource: /health/ is /health
        if (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        for (String raw : path.split("/", -1)) {
            segments.add(decode(raw, false));
        }
        return segments;
    }

    /**
     * Decodes one URI component.
     *
     * @param plusIsSpace true for query strings, where a '+' stands for a space (HTML form encoding)
     */
    static String decode(String raw, boolean plusIsSpace) {
        if (raw.indexOf('%') < 0 && (!plusIsSpace || raw.indexOf('+') < 0)) {
            return raw;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                if (i + 2 >= raw.length() || hex(raw.charAt(i + 1)) < 0 || hex(raw.charAt(i + 2)) < 0) {
                    throw ApiException.badRequest("malformed percent-encoding in '" + shorten(raw) + "'");
                }
                bytes.write(hex(raw.charAt(i + 1)) * 16 + hex(raw.charAt(i + 2)));
                i += 2;
            } else if (c == '+' && plusIsSpace) {
                bytes.write(' ');
            } else {
                byte[] utf8 = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(utf8, 0, utf8.length);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            throw ApiException.badRequest("'" + shorten(raw) + "' is not percent-encoded UTF-8");
        }
    }

    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    static String shorten(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "...";
    }
}
