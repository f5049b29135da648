package dev.hangar.launcher.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.config.ConfigException;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.store.assembly.ProviderRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
    @TempDir
    Path dir;

    private static Map<String, String> flags(String... keyValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put(keyValues[i], keyValues[i + 1]);
        }
        return map;
    }

    private Path file(String content) throws IOException {
        Path f = dir.resolve("store.conf");
        Files.writeString(f, content);
        return f;
    }

    @Test
    void withNothingGivenEveryKeyHasItsDefault() {
        StoreConfig c = new ConfigLoader(Map.of("PATH", "/bin", "HOME", "/root")).load(null, Map.of(), null);
        assertEquals("./store", c.get(StoreConfigKeys.STORE_PATH_ROOT_DIR));
        assertEquals("ASYNC_FLUSH", c.get(StoreConfigKeys.FLUSH_DISK_TYPE));
        assertEquals("default", c.source(StoreConfigKeys.FLUSH_DISK_TYPE));
        assertTrue(c.warnings().isEmpty());
    }

    @Test
    void theLauncherScriptsOwnVariablesAreNoKeysAndTheOthersStillAre() {
        // bin/store-launcher reads these two; before, HANGAR_JAVA_OPTS failed every command as an unknown key
        StoreConfig c = new ConfigLoader(Map.of("HANGAR_JAVA_OPTS", "-Xmx1g", "HANGAR_JVM_OPTIONS_FILE", "/etc/j",
                "HANGAR_FLUSH_DISK_TYPE", "SYNC_FLUSH")).load(null, Map.of(), null);
        assertEquals("SYNC_FLUSH", c.get(StoreConfigKeys.FLUSH_DISK_TYPE));
        assertThrows(ConfigException.class, () -> new ConfigLoader(Map.of("HANGAR_JAVA_OPTZ", "-Xmx1g"))
                .load(null, Map.of(), null));
    }

    @Test
    void fileBeatsDefaultsEnvironmentBeatsFileAndDefinitionsBeatEnvironment() throws IOException {
        Path conf = file("""
                flushDiskType=SYNC_FLUSH
                flushIntervalCommitLog=100
                maxMessageSize=1000
                syncFlushTimeout=100
                """);
        Map<String, String> env = Map.of(
                "HANGAR_FLUSH_INTERVAL_COMMIT_LOG", "200",
                "HANGAR_SYNC_FLUSH_TIMEOUT", "200",
                "HANGAR_maxMessageSize", "2000");
        StoreConfig c = new ConfigLoader(env).load(conf, flags("syncFlushTimeout", "300"), null);

        assertEquals("SYNC_FLUSH", c.get(StoreConfigKeys.FLUSH_DISK_TYPE));
        assertEquals("file:" + conf, c.source(StoreConfigKeys.FLUSH_DISK_TYPE));
        assertEquals(200, c.get(StoreConfigKeys.FLUSH_INTERVAL_COMMIT_LOG));
        assertEquals("env HANGAR_FLUSH_INTERVAL_COMMIT_LOG", c.source(StoreConfigKeys.FLUSH_INTERVAL_COMMIT_LOG));
        assertEquals(2000, c.get(StoreConfigKeys.MAX_MESSAGE_SIZE), "the exact key name works after HANGAR_ too");
        assertEquals("env HANGAR_maxMessageSize", c.source(StoreConfigKeys.MAX_MESSAGE_SIZE));
        assertEquals(300, c.get(StoreConfigKeys.SYNC_FLUSH_TIMEOUT));
        assertEquals("-D", c.source(StoreConfigKeys.SYNC_FLUSH_TIMEOUT));
        assertEquals("default", c.source(StoreConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG));
    }

    @Test
    void theStoreOptionSetsTheRootDirAndWinsOverEveryLayer() {
        StoreConfig c = new ConfigLoader(Map.of("HANGAR_STORE_PATH_ROOT_DIR", "/env"))
                .load(null, flags("storePathRootDir", "/flag"), "/option");
        assertEquals("/option", c.get(StoreConfigKeys.STORE_PATH_ROOT_DIR));
        assertEquals("--store", c.source(StoreConfigKeys.STORE_PATH_ROOT_DIR));
    }

    @Test
    void environmentNamesMatchKeysWithAnyCapitalisation() {
        assertEquals("flushDiskType", ConfigLoader.keyForEnvironmentName("HANGAR_FLUSH_DISK_TYPE"));
        assertEquals("checkCRCOnRecover", ConfigLoader.keyForEnvironmentName("HANGAR_CHECK_CRC_ON_RECOVER"));
        assertEquals("useReentrantLockWhenPutMessage",
                ConfigLoader.keyForEnvironmentName("HANGAR_USE_REENTRANT_LOCK_WHEN_PUT_MESSAGE"));
        assertEquals("flushDiskTpe", ConfigLoader.keyForEnvironmentName("HANGAR_FLUSH_DISK_TPE"));
        StoreConfig c = new ConfigLoader(Map.of("HANGAR_CHECK_CRC_ON_RECOVER", "false")).load(null, Map.of(), null);
        assertFalse(c.get(StoreConfigKeys.CHECK_CRC_ON_RECOVER));
    }

    @Test
    void aPluginKeyIsReachedFromTheEnvironmentIgnoringItsDashesAndDots() {
        java.util.List<String> pluginKeys = java.util.List.of("tag-counter.topics", "keyed-test.limit");
        assertEquals("tag-counter.topics",
                ConfigLoader.keyForEnvironmentName("HANGAR_TAG_COUNTER_TOPICS", pluginKeys));
        assertEquals("keyed-test.limit", ConfigLoader.keyForEnvironmentName("HANGAR_KEYED_TEST_LIMIT", pluginKeys));
        assertEquals("flushDiskType", ConfigLoader.keyForEnvironmentName("HANGAR_FLUSH_DISK_TYPE", pluginKeys));
        assertEquals("tagCounterTopics", ConfigLoader.keyForEnvironmentName("HANGAR_TAG_COUNTER_TOPICS"),
                "without the plugin its key is unknown, and the builder then refuses it");
    }

    @Test
    void anUnknownKeyFailsWithADidYouMeanAndItsSource() {
        ConfigException e = assertThrows(ConfigException.class, () ->
                new ConfigLoader(Map.of()).load(null, flags("flushDiskTpe", "SYNC_FLUSH"), null));
        assertTrue(e.getMessage().contains("'flushDiskTpe'"), e.getMessage());
        assertTrue(e.getMessage().contains("did you mean 'flushDiskType'?"), e.getMessage());
        assertTrue(e.getMessage().contains("-D"), e.getMessage());

        ConfigException fromEnv = assertThrows(ConfigException.class, () ->
                new ConfigLoader(Map.of("HANGAR_FLUSH_DISK_TPE", "SYNC_FLUSH")).load(null, Map.of(), null));
        assertTrue(fromEnv.getMessage().contains("env HANGAR_FLUSH_DISK_TPE"), fromEnv.getMessage());
        assertTrue(fromEnv.getMessage().contains("did you mean 'flushDiskType'?"), fromEnv.getMessage());
    }

    @Test
    void aBadValueNamesTheKeyTheValueAndWhatIsAllowed() throws IOException {
        Path conf = file("flushDiskType = SOMETIMES\n");
        ConfigException e = assertThrows(ConfigException.class, () ->
                new ConfigLoader(Map.of()).load(conf, Map.of(), null));
        assertTrue(e.getMessage().contains("flushDiskType"), e.getMessage());
        assertTrue(e.getMessage().contains("'SOMETIMES'"), e.getMessage());
        assertTrue(e.getMessage().contains("ASYNC_FLUSH, SYNC_FLUSH"), e.getMessage());
        assertTrue(e.getMessage().contains("file:" + conf), e.getMessage());

        ConfigException number = assertThrows(ConfigException.class, () ->
                new ConfigLoader(Map.of("HANGAR_SYNC_FLUSH_TIMEOUT", "soon")).load(null, Map.of(), null));
        assertTrue(number.getMessage().contains("syncFlushTimeout") && number.getMessage().contains("'soon'")
                && number.getMessage().contains("an integer"), number.getMessage());
    }

    @Test
    void aBrokerConfWorksItsBrokerKeysAreIgnoredWithAWarningAndItsBooleansChooseProviders() throws IOException {
        Path conf = file("""
                brokerClusterName=DefaultCluster
                brokerName=broker-a
                brokerId=0
                storePathRootDir=/data/rocketmq/store
                flushDiskType=ASYNC_FLUSH
                useReentrantLockWhenPutMessage=false
                """);
        StoreConfig c = new ConfigLoader(Map.of()).load(conf, Map.of(), null);
        assertEquals("/data/rocketmq/store", c.get(StoreConfigKeys.STORE_PATH_ROOT_DIR));
        assertEquals("spin", c.get(StoreConfigKeys.PUT_MESSAGE_LOCK));
        assertEquals(3, c.warnings().size(), c.warnings().toString());
        assertTrue(c.warnings().stream().anyMatch(w -> w.contains("brokerName")), c.warnings().toString());
    }

    @Test
    void aMissingConfigurationFileIsAnErrorNamingTheFile() {
        Path missing = dir.resolve("nope.conf");
        ConfigException e = assertThrows(ConfigException.class, () ->
                new ConfigLoader(Map.of()).load(missing, Map.of(), null));
        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
    }

    @Test
    void aWriteBufferWithSyncFlushIsAcceptedNowThatTheGroupCommitCommitsIt() {
        StoreConfig config = new ConfigLoader(Map.of())
                .load(null, flags("mappedFile", "transient-pool", "flushDiskType", "SYNC_FLUSH"), null,
                        ProviderRegistry.discover(null));
        assertEquals("transient-pool", config.get(StoreConfigKeys.MAPPED_FILE));
        assertTrue(config.isSyncFlush());
    }
}
