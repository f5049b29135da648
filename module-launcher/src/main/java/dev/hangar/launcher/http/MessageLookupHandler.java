package dev.hangar.launcher.http;

import dev.hangar.launcher.command.MessageJson;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.MessageStore;
import dev.hangar.store.format.MessageIdCodec;

/**
 * {@code GET /v1/messages/{msgId}}: the message with that offset message id, shaped as {@code get --json} prints
 * it; 404 when there is none, 400 when the id is not one (checked before the store is asked). Thread-safe.
 */
final class MessageLookupHandler implements Router.Handler {
    private final MessageStore store;

    MessageLookupHandler(MessageStore store) {
        this.store = store;
    }

    @Override
    public void handle(ApiExchange exchange) {
        String msgId = exchange.pathParameter("msgId");
        try {
            MessageIdCodec.decode(msgId);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("bad message id '" + UriCodec.shorten(msgId) + "': " + e.getMessage());
        }
        StoredMessage message = store.lookMessageByMsgId(msgId);
        if (message == null) {
            throw new ApiException(HttpStatus.NOT_FOUND, "no message has the id " + msgId);
        }
        exchange.respondJson(HttpStatus.OK, MessageJson.toMap(message));
    }
}
