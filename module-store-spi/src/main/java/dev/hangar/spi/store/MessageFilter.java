package dev.hangar.spi.store;

import dev.hangar.spi.message.StoredMessage;

/** Filters a read: first cheaply by the ConsumeQueue tags code, then on the decoded message. */
public interface MessageFilter {

    /** Accepts everything. */
    MessageFilter ALL = new MessageFilter() {
        @Override
        public boolean matchesTagsCode(long tagsCode) {
            return true;
        }

        @Override
        public boolean matchesMessage(StoredMessage message) {
            return true;
        }
    };

    boolean matchesTagsCode(long tagsCode);

    boolean matchesMessage(StoredMessage message);
}
