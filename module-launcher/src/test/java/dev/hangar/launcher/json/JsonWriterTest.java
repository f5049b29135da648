package dev.hangar.launcher.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonWriterTest {

    @Test
    void quotesAndBackslashesAreEscaped() {
        assertEquals("\"say \\\"hi\\\" \\\\ bye\"", JsonWriter.quote("say \"hi\" \\ bye"));
    }

    @Test
    void controlCharactersAreEscapedShortWhereJsonHasAShortForm() {
        assertEquals("\"a\\nb\\rc\\td\\be\\ff\"", JsonWriter.quote("a\nb\rc\td\be\ff"));
        assertEquals("\"\\u0000\\u0001\\u0002\\u001f\"", JsonWriter.quote("\u0000\u0001\u0002\u001f"));
    }

    @Test
    void nonAsciiPassesThroughAndOnlyUnpairedSurrogatesAreEscaped() {
        assertEquals("\"é漢字😀\"", JsonWriter.quote("é漢字😀"));
        assertEquals("\"x\\ud800y\"", JsonWriter.quote("x\ud800y"));
        assertEquals("\"\\udc00\"", JsonWriter.quote("\udc00"));
        // DEL and the slash need no escape
        assertEquals("\"/\u007f\"", JsonWriter.quote("/\u007f"));
    }

    @Test
    void everyStringSurvivesARoundTripThroughAStrictReader() {
        StringBuilder all = new StringBuilder();
        for (char c = 0; c < 0x3000; c++) {
            all.append(c);
        }
        assertEquals(all.toString(), MiniJsonReader.parse(JsonWriter.quote(all.toString())));
    }

    @Test
    void nestedMapsListsAndArraysKeepTheirOrder() {
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("z", 1);
        inner.put("a", List.of(true, false));
        Map<String, Object> outer = new LinkedHashMap<>();
        outer.put("n", null);
        outer.put("inner", inner);
        outer.put("longs", new long[] {1, -2});
        outer.put("empty", Map.of());
        assertEquals("{\"n\":null,\"inner\":{\"z\":1,\"a\":[true,false]},\"longs\":[1,-2],\"empty\":{}}",
                JsonWriter.write(outer));
    }

    @Test
    void numbersAreWrittenAsJsonNumbersAndNonFiniteAsNull() {
        assertEquals("[1,-9223372036854775808,2.5,3,null,null]",
                JsonWriter.write(Arrays.asList(1, Long.MIN_VALUE, 2.5, 3.0, Double.NaN, Double.POSITIVE_INFINITY)));
        List<?> parsed = (List<?>) MiniJsonReader.parse(JsonWriter.write(List.of(1e-7, 123456789.125)));
        assertEquals(List.of(1e-7, 123456789.125),
                parsed.stream().map(n -> ((Number) n).doubleValue()).toList(), "doubles survive the round trip");
    }

    @Test
    void enumsAreTheirNamesAndMapKeysAreStrings() {
        assertEquals("{\"1\":\"SECONDS\"}", JsonWriter.write(Map.of(1, java.util.concurrent.TimeUnit.SECONDS)));
    }
}
