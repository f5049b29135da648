package dev.hangar.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hangar.compat.support.Await;
import dev.hangar.compat.support.CommitLogFiles;
import dev.hangar.compat.support.Dataset;
import dev.hangar.compat.support.Findings;
import dev.hangar.compat.support.HangarSide;
import dev.hangar.compat.support.MessageSpec;
import dev.hangar.compat.support.PutSpec;
import dev.hangar.compat.support.RocketSide;
import dev.hangar.compat.support.StoreGeometry;
import dev.hangar.compat.support.StoreReader;
import dev.hangar.compat.support.StoredRecord;
import dev.hangar.store.schedule.DelayOffsetFile;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delayed messages stored by one engine are delivered by the other's schedule service when due (delay level 1,
 * one second), with their body, keys, tag and user properties; and the delivery progress one engine saves in
 * {@code config/delayOffset.json} is honoured by the other, which does not deliver them a second time.
 */
class DelayedDeliveryInterplayTest {
    private static final Logger LOG = LoggerFactory.getLogger(DelayedDeliveryInterplayTest.class);
    private static final String HOST = StoreGeometry.IPV4_STORE_HOST;
    private static final String TOPIC = "DTopic";
    private static final int QUEUE = 1;
    private static final int DELAYED = 3;

    @TempDir
    Path dir;

    @Test
    void hangarDeliversWhatRocketMqDelayedAndRocketMqDoesNotDeliverItAgain() throws Exception {
        Dataset ds = dataset("R");
        try (RocketSide rocket = RocketSide.open(dir, HOST)) {
            rocket.write(ds);
        }
        assertEquals(DELAYED + 1, CommitLogFiles.records(dir).size(), "nothing was delivered before the shutdown");
        Findings findings = new Findings();
        try (HangarSide hangar = HangarSide.open(dir, HOST)) {
            checkDelivered(findings, hangar, ds);
        }
        Map<Integer, Long> saved = new DelayOffsetFile(dir.resolve("config/delayOffset.json")).read();
        findings.check("Hangar's delayOffset.json", Long.valueOf(DELAYED).equals(saved.get(1)),
                "level 1 progress " + saved.get(1) + ", expected " + DELAYED + " (file: " + saved + ")");
        try (RocketSide rocket = RocketSide.open(dir, HOST)) {
            String progress = rocket.store().getScheduleMessageService().encode();
            findings.check("RocketMQ reads Hangar's delayOffset.json", progress.replaceAll("\\s", "").contains("1:" + DELAYED),
                    "RocketMQ's delay progress after loading Hangar's file: " + progress);
            awaitSentinel(rocket.write(sentinel("R")) != null, rocket, "R");
            findings.check("RocketMQ after Hangar delivered", rocket.maxOffset(TOPIC, QUEUE) == DELAYED + 2,
                    "queue " + TOPIC + "/" + QUEUE + " holds " + rocket.maxOffset(TOPIC, QUEUE)
                            + " messages, expected the " + (DELAYED + 1) + " and the sentinel: the delayed messages"
                            + " were delivered again");
        }
        findings.assertNone();
    }

    @Test
    void rocketMqDeliversWhatHangarDelayedAndHangarDoesNotDeliverItAgain() throws Exception {
        Dataset ds = dataset("H");
        try (HangarSide hangar = HangarSide.open(dir, HOST)) {
            hangar.write(ds);
        }
        assertEquals(DELAYED + 1, CommitLogFiles.records(dir).size(), "nothing was delivered before the shutdown");
        Findings findings = new Findings();
        try (RocketSide rocket = RocketSide.open(dir, HOST)) {
            checkDelivered(findings, rocket, ds);
        }
        Map<Integer, Long> saved = new DelayOffsetFile(dir.resolve("config/delayOffset.json")).read();
        findings.check("Hangar reads RocketMQ's delayOffset.json", Long.valueOf(DELAYED).equals(saved.get(1)),
                "level 1 progress as Hangar reads RocketMQ's file: " + saved);
        try (HangarSide hangar = HangarSide.open(dir, HOST)) {
            awaitSentinel(hangar.write(sentinel("H")) != null, hangar, "H");
            findings.check("Hangar after RocketMQ delivered", hangar.maxOffset(TOPIC, QUEUE) == DELAYED + 2,
                    "queue " + TOPIC + "/" + QUEUE + " holds " + hangar.maxOffset(TOPIC, QUEUE)
                            + " messages, expected the " + (DELAYED + 1) + " and the sentinel: the delayed messages"
                            + " were delivered again");
        }
        findings.assertNone();
    }

    /**
     * One more level-1 delayed message, put after the reopen. The schedule service delivers a level's messages in the
     * order they were delayed, so once the sentinel is delivered every earlier message of level 1 that the engine
     * would deliver (again) has been delivered too: no sleeping for "long enough" to prove nothing happened.
     */
    private static Dataset sentinel(String prefix) {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("KEYS", prefix + "sentinel");
        props.put("TAGS", "late");
        props.put("DELAY", "1");
        return new Dataset("sentinel", HOST, List.of(PutSpec.single(new MessageSpec(TOPIC, QUEUE, 0,
                "sentinel".getBytes(StandardCharsets.UTF_8), props, MessageSpec.TX_NOT, 1_700_000_001_000L,
                new InetSocketAddress("10.1.2.3", 5000), 0, 0))));
    }

    private static void awaitSentinel(boolean written, StoreReader reader, String prefix) {
        assertEquals(true, written, "the sentinel was stored");
        Await.until(reader.engine() + " delivered the sentinel", () -> !reader.query(TOPIC, prefix + "sentinel").isEmpty(),
                () -> "queue " + TOPIC + "/" + QUEUE + " holds " + reader.maxOffset(TOPIC, QUEUE));
        Await.dispatched(reader, Map.of(Dataset.queueName(TOPIC, QUEUE), DELAYED + 2));
    }

    /** One plain message, then {@link #DELAYED} messages with delay level 1, all for {@code TOPIC/QUEUE}. */
    private static Dataset dataset(String prefix) {
        List<PutSpec> puts = new ArrayList<>();
        for (int i = 0; i <= DELAYED; i++) {
            Map<String, String> props = new LinkedHashMap<>();
            props.put("KEYS", prefix + "delayed-" + i);
            props.put("TAGS", "late");
            props.put("note", "ünïcödé " + i);
            if (i > 0) {
                props.put("DELAY", "1");
            }
            puts.add(PutSpec.single(new MessageSpec(TOPIC, QUEUE, 7, ("body " + i).getBytes(StandardCharsets.UTF_8),
                    props, MessageSpec.TX_NOT, 1_700_000_000_000L + i, new InetSocketAddress("10.1.2.3", 4000 + i), 0,
                    0)));
        }
        return new Dataset("delayed", HOST, puts);
    }

    /** Waits for the delivery, then checks each delivered message against what was put. */
    private static void checkDelivered(Findings findings, StoreReader reader, Dataset ds) {
        Await.dispatched(reader, Map.of(Dataset.queueName(TOPIC, QUEUE), DELAYED + 1));
        String step = reader.engine() + " delivers the other engine's delayed messages";
        List<MessageSpec> specs = ds.messages();
        for (int i = 1; i <= DELAYED; i++) {
            StoredRecord got = reader.get(TOPIC, QUEUE, i);
            MessageSpec spec = specs.get(i);
            if (got == null) {
                findings.check(step, false, "queue offset " + i + " not readable");
                continue;
            }
            LOG.info("{} delivered {} with properties {}", reader.engine(), got, got.properties());
            findings.check(step, got.body().equals(StoredRecord.bodyDigest(spec.body())), "body of " + got);
            findings.check(step, got.flag() == spec.flag(), "flag " + got.flag() + " of " + got);
            findings.check(step, got.bornTimestamp() == spec.bornTimestamp(), "born time of " + got);
            for (String p : List.of("KEYS", "TAGS", "note")) {
                findings.check(step, spec.properties().get(p).equals(got.properties().get(p)),
                        "property " + p + "=" + got.properties().get(p) + ", expected " + spec.properties().get(p));
            }
            String key = spec.properties().get("KEYS");
            findings.check(step, reader.query(TOPIC, key).stream().anyMatch(r -> r.commitLogOffset() == got.commitLogOffset()),
                    "key " + key + " does not find the delivered message");
        }
    }
}
