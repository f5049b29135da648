/**
 * JNA as jna-jpms describes it, except that java.desktop is optional: {@code com.sun.jna.Native} reaches AWT only to
 * get native window handles, which Hangar never does, so the runtime image links no desktop modules.
 */
module com.sun.jna {
    requires java.logging;
    requires static java.desktop;

    exports com.sun.jna;
    exports com.sun.jna.ptr;
    exports com.sun.jna.win32;
}
