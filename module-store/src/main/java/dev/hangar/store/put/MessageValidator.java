package dev.hangar.store.put;

import dev.hangar.spi.message.Message;
import dev.hangar.spi.message.MessageSysFlag;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Checks a message before anything is encoded. A topic becomes a directory name, so only
 * {@code [A-Za-z0-9_%|-]}, 1..127 characters, are allowed: {@code ..}, {@code /} and the like are refused.
 */
public final class MessageValidator {
    public static final int MAX_TOPIC_LENGTH = 127;

    private MessageValidator() {
    }

    /** Null when the topic is fine, else the reason it is not. */
    public static String checkTopic(String topic) {
        if (topic == null || topic.isEmpty()) {
            return "topic is empty";
        }
        if (topic.length() > MAX_TOPIC_LENGTH) {
            return "topic is " + topic.getBytes(StandardCharsets.UTF_8).length + " bytes, at most " + MAX_TOPIC_LENGTH;
        }
        for (int i = 0; i < topic.length(); i++) {
            char c = topic.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '_' || c == '-' || c == '%' || c == '|';
            if (!ok) {
                return "topic '" + printable(topic) + "' has the character '" + printable(String.valueOf(c))
                        + "'; allowed: letters, digits, _ - % |";
            }
        }
        return null;
    }

    /** Null when the message may be encoded, else the reason (sizes and properties are checked by the encoder). */
    public static String check(Message m) {
        if (m == null) {
            return "message is null";
        }
        String topicProblem = checkTopic(m.topic());
        if (topicProblem != null) {
            return topicProblem;
        }
        if (m.queueId() < 0) {
            return "queue id " + m.queueId() + " is negative";
        }
        if (m.body() == null) {
            return "body is null";
        }
        return null;
    }

    private static String printable(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(s.length(), 64); i++) {
            char c = s.charAt(i);
            sb.append(c < 0x20 || c == 0x7f ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return s.length() > 64 ? sb + "..." : sb.toString();
    }

    /**
     * RocketMQ's batch rules on top of {@link #check}: at least one message, all of the first one's topic and
     * queue, none delayed and none a transaction message.
     *
     * @return null when the batch may be stored, else what is wrong
     */
    public static String checkBatch(List<Message> batch) {
        if (batch == null || batch.isEmpty()) {
            return "a batch needs at least one message";
        }
        Message first = batch.get(0);
        for (Message m : batch) {
            String problem = check(m);
            if (problem != null) {
                return problem;
            }
            if (!m.topic().equals(first.topic()) || m.queueId() != first.queueId()) {
                return "every message of a batch must have the topic and queue of the first";
            }
            if (m.delayLevel() > 0) {
                return "a batch cannot carry delayed messages";
            }
            if (MessageSysFlag.transactionType(m.sysFlag()) != MessageSysFlag.TRANSACTION_NOT_TYPE) {
                return "a batch cannot carry transaction messages";
            }
        }
        return null;
    }
}
