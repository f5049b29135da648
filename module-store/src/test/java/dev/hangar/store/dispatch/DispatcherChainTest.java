package dev.hangar.store.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.CommitLogDispatcherProvider;
import dev.hangar.spi.dispatch.DispatcherContext;
import dev.hangar.spi.dispatch.DispatchRequest;
import dev.hangar.spi.dispatch.KeyIndexView;
import dev.hangar.store.assembly.ProviderRegistry;
import dev.hangar.store.plugin.GatedBuiltInDispatcherProvider;
import dev.hangar.store.service.RunningFlags;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

class DispatcherChainTest {

    /** A built-in dispatcher that fails every record. */
    private static class FailingDispatcher implements CommitLogDispatcher {
        @Override
        public void dispatch(DispatchRequest request) {
            throw new IllegalStateException("cannot write on purpose");
        }

        @Override
        public long durableOffset() {
            return 0;
        }

        @Override
        public void truncate(long commitLogOffset) {
        }
    }

    /** The same, but it answers key queries: its failure is an index failure whatever it is called. */
    private static final class FailingKeyIndex extends FailingDispatcher implements KeyIndexView {
        @Override
        public List<Long> queryOffsets(String topic, String key, int maxNum, long begin, long end) {
            return List.of();
        }

        @Override
        public long lastUpdateTimestamp() {
            return 0;
        }

        @Override
        public long lastUpdatePhyOffset() {
            return 0;
        }
    }

    private static DispatchRequest request() {
        return DispatchRequest.of("T", 0, 1234, 100, 0, 0, 0, null, null, 0, 0, java.util.Map.of(), 0);
    }

    private static int flagsAfterOneFailure(String name, CommitLogDispatcher dispatcher) {
        RunningFlags flags = new RunningFlags();
        try (DispatcherChain chain = new DispatcherChain(
                List.of(new DispatcherChain.Entry(name, dispatcher, true, new LongAdder())), flags)) {
            chain.dispatch(request());
        }
        return flags.bits();
    }

    @Test
    void aFailingDispatcherThatAnswersKeyQueriesMarksTheIndexWhateverItsName() {
        assertEquals(RunningFlags.WRITE_INDEX_FILE_ERROR, flagsAfterOneFailure("my-keys", new FailingKeyIndex()));
    }

    @Test
    void aFailingDispatcherWithoutKeyQueriesMarksTheConsumeQueuesEvenWhenNamedIndex() {
        assertEquals(RunningFlags.WRITE_LOGICS_QUEUE_ERROR, flagsAfterOneFailure("index", new FailingDispatcher()));
    }

    /** A provider outside Hangar's dispatch module that says (or not) that the store's reads depend on it. */
    private static CommitLogDispatcherProvider provider(boolean storeReadsDependOnIt) {
        return new CommitLogDispatcherProvider() {
            @Override
            public String name() {
                return "elsewhere";
            }

            @Override
            public String description() {
                return "a dispatcher from another module";
            }

            @Override
            public boolean storeReadsDependOnIt() {
                return storeReadsDependOnIt;
            }

            @Override
            public CommitLogDispatcher create(DispatcherContext context) {
                return new FailingDispatcher();
            }
        };
    }

    @Test
    void theProviderNotThePackageOfItsClassDecidesWhetherADispatcherIsBuiltIn() {
        // the old rule (class name starting with dev.hangar.dispatch.) made both of these plugins
        assertTrue(DispatcherChain.entry("elsewhere", provider(true), new FailingDispatcher()).builtIn());
        assertFalse(DispatcherChain.entry("elsewhere", provider(false), new FailingDispatcher()).builtIn());
    }

    @Test
    void aFailingDispatcherWhoseProviderSaysTheReadsDependOnItStopsTheWrites() {
        RunningFlags flags = new RunningFlags();
        try (DispatcherChain chain = new DispatcherChain(
                List.of(DispatcherChain.entry("elsewhere", provider(true), new FailingDispatcher())), flags)) {
            chain.dispatch(request());
        }
        assertEquals(RunningFlags.WRITE_LOGICS_QUEUE_ERROR, flags.bits());
    }

    @Test
    void onlyTheConsumeQueueAndIndexProvidersSayTheStoreReadsDependOnThem() {
        Map<String, Boolean> claims = ProviderRegistry.discover(null).providers(CommitLogDispatcherProvider.class)
                .stream().collect(Collectors.toMap(CommitLogDispatcherProvider::name,
                        CommitLogDispatcherProvider::storeReadsDependOnIt, (a, b) -> a || b));
        assertEquals(true, claims.get("consume-queue"));
        assertEquals(true, claims.get("index"));
        claims.forEach((name, claim) -> {
            // the one exception on purpose: a test dispatcher fed by the reput loop, held shut to slow its thread
            boolean deliberatelyBuiltIn = name.equals(GatedBuiltInDispatcherProvider.NAME);
            if (!name.equals("consume-queue") && !name.equals("index") && !deliberatelyBuiltIn) {
                assertFalse(claim, name + " is a test plugin: the store's reads must not depend on it");
            }
        });
    }
}
