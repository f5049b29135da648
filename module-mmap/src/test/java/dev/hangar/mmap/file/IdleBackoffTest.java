package dev.hangar.mmap.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** {@link IdleBackoff}: the pretoucher's idle sleep grows only after a run of looks without work. */
class IdleBackoffTest {
    @Test
    void aLookWithWorkIsFollowedByAnotherAtOnce() {
        IdleBackoff idle = new IdleBackoff(1_000, 4_000, 3);
        assertEquals(0, idle.afterLook(true));
    }

    @Test
    void theSleepGrowsAfterTheGivenLooksWithoutWorkAndShrinksAtTheNextWork() {
        IdleBackoff idle = new IdleBackoff(1_000, 4_000, 3);
        assertEquals(1_000, idle.afterLook(false));
        assertEquals(1_000, idle.afterLook(false));
        assertEquals(1_000, idle.afterLook(false));
        assertEquals(4_000, idle.afterLook(false), "the fourth look in a row without work");
        assertEquals(4_000, idle.afterLook(false));
        assertEquals(0, idle.afterLook(true), "work: look again at once");
        assertEquals(1_000, idle.afterLook(false), "and the short sleep again after it");
    }

    @Test
    void aWriterThatKeepsFindingWorkNeverGetsTheLongSleep() {
        IdleBackoff idle = new IdleBackoff(1_000, 4_000, 3);
        for (int i = 0; i < 100; i++) {
            assertEquals(1_000, idle.afterLook(false));
            assertEquals(1_000, idle.afterLook(false));
            assertEquals(1_000, idle.afterLook(false));
            assertEquals(0, idle.afterLook(true));
        }
    }

    @Test
    void nonsenseIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new IdleBackoff(0, 4_000, 3));
        assertThrows(IllegalArgumentException.class, () -> new IdleBackoff(4_000, 1_000, 3));
        assertThrows(IllegalArgumentException.class, () -> new IdleBackoff(1_000, 4_000, -1));
    }
}
