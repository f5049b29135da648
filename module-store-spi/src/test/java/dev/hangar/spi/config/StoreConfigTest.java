package dev.hangar.spi.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class StoreConfigTest {
    private static final String START = "<!-- config-table:start -->";
    private static final String END = "<!-- config-table:end -->";

    @Test
    void defaultsAreRocketMqs() {
        StoreConfig c = StoreConfig.defaults();
        assertEquals(1 << 30, c.get(StoreConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG));
        assertEquals(6_000_000, c.consumeQueueFileSize());
        assertEquals("ASYNC_FLUSH", c.get(StoreConfigKeys.FLUSH_DISK_TYPE));
        assertEquals(500, c.get(StoreConfigKeys.FLUSH_INTERVAL_COMMIT_LOG));
        assertEquals(5000, c.get(StoreConfigKeys.SYNC_FLUSH_TIMEOUT));
        assertEquals("reentrant", c.get(StoreConfigKeys.PUT_MESSAGE_LOCK));
        assertEquals("default", c.source(StoreConfigKeys.PUT_MESSAGE_LOCK));
    }

    @Test
    void aTypoFailsWithADidYouMean() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> StoreConfig.builder().set("flushDiskTpe", "SYNC_FLUSH", "-D"));
        assertTrue(e.getMessage().contains("flushDiskTpe") && e.getMessage().contains("did you mean 'flushDiskType'"),
                e.getMessage());
    }

    @Test
    void aBadValueNamesKeyValueAndWhatIsAllowed() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> StoreConfig.builder().set("flushDiskType", "SOMETIMES", "file:broker.conf"));
        assertTrue(e.getMessage().contains("flushDiskType") && e.getMessage().contains("SOMETIMES")
                && e.getMessage().contains("ASYNC_FLUSH, SYNC_FLUSH") && e.getMessage().contains("broker.conf"),
                e.getMessage());
        assertThrows(ConfigException.class, () -> StoreConfig.builder().set("maxMessageSize", "lots", "-D"));
        assertThrows(ConfigException.class, () -> StoreConfig.builder().set("diskMaxUsedSpaceRatio", "99", "-D"));
    }

    @Test
    void impossibleCombinationsFailAtBuild() {
        // mappedFile=transient-pool with SYNC_FLUSH depends on what the storage provider is: that refusal is built
        // where the providers are known (StoreAssemblyTest.aWriteBufferWithSyncFlushIsAcceptedBeforeOpeningSinceTheGroupCommitCommitsIt,
        // ConfigLoaderTest.anImpossibleCombinationIsRefused)
        assertThrows(ConfigException.class, () -> StoreConfig.builder()
                .set("mappedFileSizeCommitLog", "5000", "-D").build());
        assertThrows(ConfigException.class, () -> StoreConfig.builder()
                .set("mappedFileSizeCommitLog", "4294967296", "-D").build());
    }

    @Test
    void rocketMqBrokerConfKeysWorkAndUnusedOnesWarn() {
        StoreConfig c = StoreConfig.builder()
                .set("useReentrantLockWhenPutMessage", "false", "broker.conf")
                .set("transientStorePoolEnable", "true", "broker.conf")
                .set("brokerName", "broker-a", "broker.conf")
                .set("flushIntervalCommitLog", "250", "broker.conf")
                .build();
        assertEquals("spin", c.get(StoreConfigKeys.PUT_MESSAGE_LOCK));
        assertEquals("transient-pool", c.get(StoreConfigKeys.MAPPED_FILE));
        assertEquals(250, c.get(StoreConfigKeys.FLUSH_INTERVAL_COMMIT_LOG));
        assertTrue(c.warnings().stream().anyMatch(w -> w.contains("brokerName")), c.warnings().toString());
    }

    @Test
    void replicationKeysOfABrokerConfAreAppliedNotIgnored() {
        StoreConfig c = StoreConfig.builder()
                .set("brokerRole", "SLAVE", "broker.conf")
                .set("haMasterAddress", "10.0.0.1:10912", "broker.conf")
                .set("haListenPort", "10922", "broker.conf")
                .set("haTransferBatchSize", "65536", "broker.conf")
                .build();
        assertEquals("SLAVE", c.get(StoreConfigKeys.BROKER_ROLE));
        assertEquals("10.0.0.1:10912", c.get(StoreConfigKeys.HA_MASTER_ADDRESS));
        assertEquals(10922, c.get(StoreConfigKeys.HA_LISTEN_PORT));
        assertEquals(65536, c.get(StoreConfigKeys.HA_TRANSFER_BATCH_SIZE));
        assertTrue(c.warnings().isEmpty(), c.warnings().toString());
        assertThrows(ConfigException.class, () -> StoreConfig.builder().set("brokerRole", "MASTER", "-D").build());
    }

    @Test
    void aTypicalRocketMqBrokerConfLoadsWithWarningsForTheBrokerKeys() {
        java.util.Map<String, String> brokerConf = new java.util.LinkedHashMap<>();
        brokerConf.put("brokerClusterName", "DefaultCluster");
        brokerConf.put("brokerName", "broker-a");
        brokerConf.put("brokerId", "0");
        brokerConf.put("deleteWhen", "04");
        brokerConf.put("fileReservedTime", "48");
        brokerConf.put("brokerRole", "ASYNC_MASTER");
        brokerConf.put("flushDiskType", "ASYNC_FLUSH");
        brokerConf.put("namesrvAddr", "127.0.0.1:9876");
        brokerConf.put("autoCreateTopicEnable", "true");
        brokerConf.put("storePathRootDir", "/data/rocketmq/store");
        brokerConf.put("storePathCommitLog", "/data/rocketmq/store/commitlog");
        brokerConf.put("mappedFileSizeCommitLog", "1073741824");
        brokerConf.put("maxMessageSize", "65536");
        brokerConf.put("diskMaxUsedSpaceRatio", "88");
        brokerConf.put("sendMessageThreadPoolNums", "16");
        brokerConf.put("useReentrantLockWhenPutMessage", "true");
        brokerConf.put("transientStorePoolEnable", "false");
        StoreConfig c = StoreConfig.builder().setAll(brokerConf, "file:broker.conf").build();
        assertEquals(48, c.get(StoreConfigKeys.FILE_RESERVED_TIME));
        assertEquals(65536, c.get(StoreConfigKeys.MAX_MESSAGE_SIZE));
        assertEquals("/data/rocketmq/store", c.get(StoreConfigKeys.STORE_PATH_ROOT_DIR));
        assertEquals(7, c.warnings().size(), c.warnings().toString()); // one per broker-only key above (brokerRole is used)
    }

    @Test
    void theReadmeTableIsGeneratedFromTheKeyTable() throws IOException {
        Path readme = Path.of("..", "README.md");
        String text = Files.readString(readme, StandardCharsets.UTF_8);
        int a = text.indexOf(START);
        int b = text.indexOf(END);
        assertTrue(a >= 0 && b > a, "README.md has the config-table markers");
        String generated = START + "\n" + ConfigDocs.markdownTable() + END;
        String current = text.substring(a, b + END.length());
        if (!generated.equals(current) && Boolean.getBoolean("hangar.updateReadme")) {
            Files.writeString(readme, text.substring(0, a) + generated + text.substring(b + END.length()),
                    StandardCharsets.UTF_8);
            return;
        }
        assertEquals(generated, current, "README config table is stale: run "
                + "`mvn -pl module-store-spi test -Dhangar.updateReadme=true`");
    }
}
