package dev.hangar.store.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.DispatchRequest;
import dev.hangar.spi.dispatch.KeyIndexView;
import dev.hangar.store.service.RunningFlags;
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
        return new DispatchRequest("T", 0, 1234, 100, 0, 0, 0, null, null, 0, 0, java.util.Map.of(), 0);
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
}
