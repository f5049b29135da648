package dev.hangar.flush;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.flush.FlushCommitLogServiceProvider;
import dev.hangar.spi.flush.FlushContext;
import dev.hangar.spi.flush.FlushStatistics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlushProvidersTest {

    @TempDir
    Path dir;

    private static Map<String, FlushCommitLogServiceProvider> providers() {
        return ServiceLoader.load(FlushCommitLogServiceProvider.class).stream()
                .map(ServiceLoader.Provider::get)
                .collect(Collectors.toMap(FlushCommitLogServiceProvider::name, Function.identity()));
    }

    @Test
    void serviceLoaderFindsTheThreeBuiltInsByName() {
        Map<String, FlushCommitLogServiceProvider> found = providers();
        assertEquals(Set.of("realtime", "commit-realtime", "group-commit"), found.keySet());
        found.values().forEach(p -> assertFalse(p.description().isBlank(), p.name() + " describes itself"));
    }

    @Test
    void anIncompleteContextIsRefusedWithTheMissingPartNamed() {
        for (FlushCommitLogServiceProvider provider : providers().values()) {
            NullPointerException nullContext = assertThrows(NullPointerException.class, () -> provider.create(null));
            assertTrue(nullContext.getMessage().contains("FlushContext"), nullContext.getMessage());
            FlushContext noTarget = new FlushContext(null, StoreConfig.defaults(), new InMemoryCheckpoint(),
                    new RecordingStoreHealth(), new FlushStatistics());
            NullPointerException missing = assertThrows(NullPointerException.class, () -> provider.create(noTarget));
            assertTrue(missing.getMessage().contains("target"), missing.getMessage());
        }
    }

    @Test
    void eachServiceRunsNamedDaemonThreadsThatEndAtShutdown() throws Exception {
        Map<String, List<String>> expectedThreads = Map.of(
                "realtime", List.of(RealtimeFlushService.THREAD_NAME),
                "commit-realtime", List.of(CommitRealtimeFlushService.COMMIT_THREAD_NAME,
                        CommitRealtimeFlushService.FLUSH_THREAD_NAME),
                "group-commit", List.of(GroupCommitFlushService.THREAD_NAME, FlushDeadlineWatcher.THREAD_NAME));
        for (Map.Entry<String, FlushCommitLogServiceProvider> entry : providers().entrySet()) {
            Path sub = dir.resolve(entry.getKey());
            Files.createDirectories(sub);
            try (FlushFixture f = new FlushFixture(sub, entry.getKey().equals("commit-realtime"),
                    StoreConfig.defaults(), entry.getValue()::create)) {
                assertThrows(IllegalStateException.class, () -> {
                    f.service.start();
                    f.service.start();
                }, "start twice is a bug");
                Set<String> running = new TreeSet<>();
                for (Thread t : Thread.getAllStackTraces().keySet()) {
                    if (t.getName().startsWith("hangar-flush") && t.isAlive()) {
                        assertTrue(t.isDaemon(), t.getName() + " is a daemon");
                        running.add(t.getName());
                    }
                }
                assertTrue(running.containsAll(expectedThreads.get(entry.getKey())), entry.getKey() + ": " + running);
                assertTrue(f.service.statistics() == f.statistics, "statistics come from the context");

                f.service.shutdown();
                f.service.shutdown(); // a second shutdown is a no-op

                for (String name : expectedThreads.get(entry.getKey())) {
                    assertFalse(RealtimeFlushServiceTest.threadAlive(name), name + " ended");
                }
            }
        }
    }
}
