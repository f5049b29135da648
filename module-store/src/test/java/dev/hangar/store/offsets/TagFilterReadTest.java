package dev.hangar.store.offsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.spi.store.GetMessageStatus;
import dev.hangar.spi.store.MessageFilter;
import dev.hangar.spi.store.TagFilter;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.TestStores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link TagFilter} through the store's read: the tags code first, then the exact tag. */
class TagFilterReadTest {
    @TempDir
    Path dir;

    private static List<String> bodies(GetMessageResult r) {
        return r.messages().stream().map(m -> new String(m.body(), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void tagsOfTheSameHashAreToldApartAndListsAndStarWork() {
        assertEquals("Aa".hashCode(), "BB".hashCode());
        try (DefaultMessageStore store = TestStores.started(dir)) {
            String[] tags = {"Aa", "BB", null, "C", "Aa"};
            for (int i = 0; i < tags.length; i++) {
                var m = TestStores.message("T", 0, "m" + i);
                if (tags[i] != null) {
                    m.tags(tags[i]);
                }
                assertTrue(store.putMessage(m).isOk());
            }
            TestStores.await("dispatched", () -> store.getMaxOffsetInQueue("T", 0) == 5);
            assertEquals(List.of("m0", "m4"), bodies(store.getMessage("g", "T", 0, 0, 32, TagFilter.parse("Aa"))));
            assertEquals(List.of("m1"), bodies(store.getMessage("g", "T", 0, 0, 32, TagFilter.parse("BB"))));
            assertEquals(List.of("m1", "m3"), bodies(store.getMessage("g", "T", 0, 0, 32, TagFilter.parse(" BB || C "))));
            assertEquals(5, store.getMessage("g", "T", 0, 0, 32, TagFilter.parse("*")).messages().size());
            GetMessageResult none = store.getMessage("g", "T", 0, 0, 32, TagFilter.parse("Zz"));
            assertEquals(GetMessageStatus.NO_MATCHED_MESSAGE, none.status());
            assertEquals(5, none.nextBeginOffset(), "past everything scanned");
        }
    }

    @Test
    void parsing() {
        assertSame(MessageFilter.ALL, TagFilter.parse(null));
        assertSame(MessageFilter.ALL, TagFilter.parse(" * "));
        assertSame(MessageFilter.ALL, TagFilter.parse(""));
        assertEquals(Set.of("A", "B"), ((TagFilter) TagFilter.parse("A||B")).tags());
        assertThrows(IllegalArgumentException.class, () -> TagFilter.parse("A||"));
        assertThrows(IllegalArgumentException.class, () -> TagFilter.parse("||"));
        assertThrows(IllegalArgumentException.class, () -> TagFilter.parse("*||A"));
    }

    @Test
    void theExactTagIsCheckedEvenWhenTheCodeMatches() {
        MessageFilter aa = TagFilter.parse("Aa");
        assertTrue(aa.matchesTagsCode("BB".hashCode()), "the code cannot tell them apart");
        StoredMessage bb = new StoredMessage("T", 0, 0, 0, 0, 0, 0, 0, 0, null, 0, null, 0, 0, new byte[0],
                java.util.Map.of("TAGS", "BB"), "id");
        assertEquals(false, aa.matchesMessage(bb));
    }
}
