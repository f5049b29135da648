/**
 * Mapped files: the {@code mmap} and {@code transient-pool} variants, the MappedFileQueue they share,
 * pre-allocation, the write-buffer pool and the JNA calls into libc.
 *
 * @provides dev.hangar.spi.mapped.MappedStorageProvider
 */
module dev.hangar.mmap {
    requires dev.hangar.spi;
    requires org.slf4j;
    requires com.sun.jna;
    requires jdk.unsupported;
}
