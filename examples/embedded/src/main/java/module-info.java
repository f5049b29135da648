/**
 * An application embedding Hangar. It requires the engine alone; the providers (dev.hangar.mmap, dev.hangar.flush,
 * dev.hangar.dispatch) only need to be on the module path: the engine finds them with ServiceLoader.
 */
module dev.hangar.example.embedded {
    requires dev.hangar.store;
}
