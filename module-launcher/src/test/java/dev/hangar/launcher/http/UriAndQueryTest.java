package dev.hangar.launcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class UriAndQueryTest {

    @Test
    void pathSegmentsAreSplitBeforeDecodingSoAnEncodedSlashStaysInItsSegment() {
        assertEquals(List.of("v1", "topics", "%RETRY%g", "keys", "a/b"),
                UriCodec.pathSegments("/v1/topics/%25RETRY%25g/keys/a%2Fb"));
        assertEquals(List.of("health"), UriCodec.pathSegments("/health/"));
        assertEquals(List.of("a+b"), UriCodec.pathSegments("/a+b"), "a plus is a plus in a path");
        assertEquals(List.of("é"), UriCodec.pathSegments("/%C3%A9"));
    }

    @Test
    void malformedEncodingIsABadRequest() {
        assertEquals(400, assertThrows(ApiException.class, () -> UriCodec.pathSegments("/a%2")).status());
        assertEquals(400, assertThrows(ApiException.class, () -> UriCodec.pathSegments("/a%zz")).status());
        assertEquals(400, assertThrows(ApiException.class, () -> UriCodec.pathSegments("/%C3")).status(), "not UTF-8");
    }

    @Test
    void queryValuesAreDecodedTypedAndChecked() {
        QueryParameters q = QueryParameters.parse("key=a+b&key=c%26d&offset=12&flag");
        assertEquals(List.of("a b", "c&d"), q.all("key"));
        assertEquals(12, q.longValue("offset", 0, 0, 100));
        assertEquals(7, q.intValue("max", 7, 1, 10), "absent: the default");
        assertEquals("", q.single("flag"));
        assertEquals(400, assertThrows(ApiException.class, () -> q.longValue("offset", 0, 0, 10)).status());
        assertEquals(400, assertThrows(ApiException.class, () -> q.single("key")).status(), "given twice");
        assertEquals(400, assertThrows(ApiException.class, () -> q.requireOnly(Set.of("key", "offset"))).status());
        q.requireOnly(Set.of("key", "offset", "flag"));
    }
}
