package dev.hangar.launcher.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class JsonReaderTest {
    @Test
    void readsEveryKindOfValueInTextOrder() {
        Object v = JsonReader.parse(" {\"b\":[1,-2.5e1,true,false,null],\"a\":\"\\u00e9\\n\\\"x\\\"\\ud83d\\ude00\",\"n\":0} ");
        Map<?, ?> m = (Map<?, ?>) v;
        assertEquals(List.of("b", "a", "n"), List.copyOf(m.keySet()));
        assertEquals(Arrays.asList(1L, new BigDecimal("-2.5e1"), true, false, null), m.get("b"));
        assertEquals("\u00e9\n\"x\"\ud83d\ude00", m.get("a"));
        assertEquals(0L, m.get("n"));
    }

    @Test
    void whatTheWriterWritesReadsBack() {
        Map<String, Object> original = Map.of("text", "tab\t\u0001 \u2028 end", "list", List.of(1L, "two"));
        assertEquals(original, JsonReader.parse(JsonWriter.write(original)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "{", "{\"a\":1,}", "[1,]", "{\"a\":1,\"a\":2}", "01", "1.", "-", "1e", "\"raw\ttab\"",
            "\"\\x\"", "\"\\u12\"", "tru", "{a:1}", "'s'", "1 2", "99999999999999999999", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"})
    void refusesWhatIsNotStrictJsonNamingTheColumn(String text) {
        JsonReader.JsonException e = assertThrows(JsonReader.JsonException.class, () -> JsonReader.parse(text));
        assertTrue(e.getMessage().contains("column"), e.getMessage());
    }
}
