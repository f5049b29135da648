package dev.hangar.mmap.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.hangar.mmap.nativeio.NativeMemory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link HugePageAdvice}: which kernel modes it advises under, and, on this machine's kernel, that an advised
 * range is mapped with the huge-page advice ({@code hg} in its VmFlags) before any page is touched, while a plain
 * file is not (the control).
 */
class HugePageAdviceTest {
    private static final int FILE_SIZE = 4 * 1024 * 1024;
    private static final int RECORD = 1024;

    @TempDir
    Path dir;

    @Test
    void theKernelModeIsTheBracketedWordOfTheSysfsLine() throws IOException {
        Path enabled = dir.resolve("enabled");
        Files.writeString(enabled, "always [madvise] never\n");
        assertEquals("madvise", HugePageAdvice.kernelMode(enabled));
        Files.writeString(enabled, "[always] madvise never\n");
        assertEquals("always", HugePageAdvice.kernelMode(enabled));
        Files.writeString(enabled, "always madvise [never]\n");
        assertEquals("never", HugePageAdvice.kernelMode(enabled));
        assertTrue(HugePageAdvice.kernelMode(dir.resolve("missing")).startsWith("unavailable"),
                "a kernel without transparent huge pages has no such file");
    }

    @Test
    void nothingIsAdvisedWhenTheKernelSaysNeverTheKeyIsOffOrThereIsNoNativeLibrary() throws IOException {
        NativeMemory nativeMemory = NativeMemory.system();
        DefaultMappedFile file = new DefaultMappedFile(dir, 0, FILE_SIZE, nativeMemory);
        for (HugePageAdvice none : List.of(HugePageAdvice.of(nativeMemory, "never"),
                HugePageAdvice.of(nativeMemory, "unavailable (no sysfs file)"), HugePageAdvice.none(),
                HugePageAdvice.of(new NativeMemory(null, "test: no native library"), "madvise"))) {
            assertFalse(none.effective(), none.describe());
            assertFalse(none.advise(file.mappingForPretouch(), 0, FILE_SIZE), none.describe());
        }
        assertFalse(Smaps.vmFlags(file.path()).contains("hg"));
        assertTrue(HugePageAdvice.of(nativeMemory, "madvise").effective());
        assertTrue(HugePageAdvice.of(nativeMemory, "always").effective());
        assertTrue(HugePageAdvice.none().describe().contains("transparentHugePages=false"));
        assertTrue(file.destroy(0));
    }

    @Test
    void anAdvisedRangeIsMappedWithHugePagesAndAPlainFileIsNot() throws IOException {
        NativeMemory nativeMemory = NativeMemory.system();
        assertTrue(nativeMemory.isAvailable(), "madvise through JNA (a dependency of the build) must be available");
        HugePageAdvice advice = HugePageAdvice.of(nativeMemory);
        assumeTrue(advice.effective(), "SKIPPED: this kernel gives no transparent huge pages on advice ("
                + advice.describe() + "), so there is nothing to observe");
        DefaultMappedFile control = new DefaultMappedFile(Files.createDirectories(dir.resolve("plain")), 0, FILE_SIZE,
                nativeMemory);
        assertFalse(Smaps.vmFlags(control.path()).contains("hg"), "control: a plain mapping has no huge-page advice");

        DefaultMappedFile advised = new DefaultMappedFile(Files.createDirectories(dir.resolve("advised")), 0,
                FILE_SIZE, nativeMemory);
        assertTrue(advice.advise(advised.mappingForPretouch(), 0, FILE_SIZE));
        assertTrue(Smaps.vmFlags(advised.path()).contains("hg"), "flags " + Smaps.vmFlags(advised.path()));
        assertEquals(0, Smaps.kilobytes(advised.path(), "Rss"), "advising touches nothing");
        for (int i = 0; i < FILE_SIZE / RECORD; i++) {
            assertTrue(advised.append(TestAppends.record(new byte[RECORD], i + 1)).isOk());
        }
        advised.flush(0);
        assertTrue(Smaps.vmFlags(advised.path()).contains("hg"), "a force keeps the advice");
        System.out.println("HugePageAdviceTest: " + Smaps.kilobytes(advised.path(), "FilePmdMapped")
                + " kB of the written 4 MiB file mapped by 2 MiB entries (" + advice.describe() + ")");
        assertTrue(control.destroy(0));
        assertTrue(advised.destroy(0));
    }
}
