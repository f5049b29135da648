package dev.hangar.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.message.Message;
import dev.hangar.spi.store.AppendMessageResult;
import dev.hangar.spi.store.AppendMessageStatus;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one put request of the CLI, the HTTP put and NDJSON lines: its checks, its message, its JSON result. */
class MessageRequestTest {
    @Test
    void separatorsAreRefusedInKeysTagsPropertyNamesAndValuesNamingWhatIsWrong() {
        var e = assertThrows(MessageRequest.InvalidRequestException.class,
                () -> new MessageRequest("T", 0, List.of("a\u0001b"), null, Map.of()));
        assertTrue(e.getMessage().contains("key") && e.getMessage().contains("U+0001"), e.getMessage());
        assertThrows(MessageRequest.InvalidRequestException.class,
                () -> new MessageRequest("T", 0, List.of("two words"), null, Map.of()));
        e = assertThrows(MessageRequest.InvalidRequestException.class,
                () -> new MessageRequest("T", 0, List.of(), "t\u0002", Map.of()));
        assertTrue(e.getMessage().contains("tag"), e.getMessage());
        assertThrows(MessageRequest.InvalidRequestException.class,
                () -> new MessageRequest("T", 0, List.of(), "", Map.of()));
        e = assertThrows(MessageRequest.InvalidRequestException.class,
                () -> new MessageRequest("T", 0, List.of(), null, Map.of("ok", "v\u0001")));
        assertTrue(e.getMessage().contains("property 'ok'"), e.getMessage());
        assertThrows(MessageRequest.InvalidRequestException.class,
                () -> new MessageRequest("T", 0, List.of(), null, Map.of("", "v")));
        assertThrows(MessageRequest.InvalidRequestException.class,
                () -> new MessageRequest("T", -1, List.of(), null, Map.of()));
    }

    @Test
    void theMessageCarriesEveryPart() {
        Message m = new MessageRequest("Orders", 3, List.of("k1", "k2"), "new", Map.of("region", "eu"))
                .toMessage(new byte[] {1, 2});
        assertEquals("Orders", m.topic());
        assertEquals(3, m.queueId());
        assertEquals("k1 k2", m.property("KEYS"));
        assertEquals("new", m.property("TAGS"));
        assertEquals("eu", m.property("region"));
    }

    @Test
    void aRefusedPutSaysWhyUnderErrorAndAStoredOneHasItsOffsets() {
        Map<String, Object> refused = MessageRequest.resultJson(
                PutMessageResult.refused(PutMessageStatus.MESSAGE_ILLEGAL, "the body is too large"), "T", 1, 0);
        assertEquals("the body is too large", refused.get("error"));
        assertFalse(refused.containsKey("reason"), "one name for the reason: error");
        assertNull(refused.get("msgId"));

        AppendMessageResult append = AppendMessageResult.of(AppendMessageStatus.PUT_OK, 4096, 100,
                List.of("0A0000010000000000001000", "0A0000010000000000001064"), 0, 7, 2);
        PutMessageResult ok = PutMessageResult.of(PutMessageStatus.PUT_OK, append, null);
        Map<String, Object> first = MessageRequest.resultJson(ok, "T", 1, 0);
        assertEquals(List.of("status", "msgId", "topic", "queueId", "queueOffset", "commitLogOffset"),
                List.copyOf(first.keySet()));
        assertEquals(7L, first.get("queueOffset"));
        assertEquals(4096L, first.get("commitLogOffset"));
        Map<String, Object> second = MessageRequest.resultJson(ok, "T", 1, 1);
        assertEquals(8L, second.get("queueOffset"));
        assertEquals(0x1064L, second.get("commitLogOffset"), "read from the second offset message id");
    }
}
