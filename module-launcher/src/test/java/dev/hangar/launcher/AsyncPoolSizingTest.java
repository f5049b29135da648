package dev.hangar.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The launcher gives the JDK's common pool two threads on a one- or two-CPU machine, where CompletableFuture would
 * otherwise start a thread for every async step without an executor (Ratis: one per append a follower receives).
 */
class AsyncPoolSizingTest {
    private String before;

    @BeforeEach
    void remember() {
        before = System.clearProperty(StoreLauncher.COMMON_POOL_PARALLELISM);
    }

    @AfterEach
    void restore() {
        if (before == null) {
            System.clearProperty(StoreLauncher.COMMON_POOL_PARALLELISM);
        } else {
            System.setProperty(StoreLauncher.COMMON_POOL_PARALLELISM, before);
        }
    }

    @Test
    void aTwoCpuMachineGetsACommonPoolOfTwo() {
        StoreLauncher.sizeTheAsyncPool(2);
        assertEquals("2", System.getProperty(StoreLauncher.COMMON_POOL_PARALLELISM));
    }

    @Test
    void aLargerMachineKeepsTheJdkDefault() {
        StoreLauncher.sizeTheAsyncPool(16);
        assertNull(System.getProperty(StoreLauncher.COMMON_POOL_PARALLELISM));
    }

    @Test
    void aValueTheUserGaveStays() {
        System.setProperty(StoreLauncher.COMMON_POOL_PARALLELISM, "7");
        StoreLauncher.sizeTheAsyncPool(1);
        assertEquals("7", System.getProperty(StoreLauncher.COMMON_POOL_PARALLELISM));
    }
}
