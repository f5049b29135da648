package dev.hangar.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import org.junit.jupiter.api.Test;

class ErrorMessagesTest {

    @Test
    void causesAreJoinedOnOneLineWithoutRepeatingThemselves() {
        NoSuchFileException root = new NoSuchFileException("/s/commitlog");
        UncheckedIOException wrapped = new UncheckedIOException("cannot map", root);
        assertEquals("cannot open: cannot map: NoSuchFileException /s/commitlog",
                ErrorMessages.oneLine(new IllegalStateException("cannot open", wrapped)));
        assertEquals("cannot map", ErrorMessages.oneLine(new RuntimeException("cannot map", new RuntimeException("cannot map"))));
    }

    @Test
    void aMessageWithoutTextIsNamedByItsTypeAndLineBreaksAreFlattened() {
        assertEquals("IllegalStateException", ErrorMessages.oneLine(new IllegalStateException()));
        assertEquals("first; second", ErrorMessages.oneLine(new RuntimeException("first\n  second\n")));
    }
}
