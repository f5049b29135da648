package dev.hangar.raft;

import dev.hangar.spi.config.ConfigException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509KeyManager;
import javax.net.ssl.X509TrustManager;
import org.apache.ratis.grpc.GrpcTlsConfig;

/**
 * Reads the {@code raft.tls.*} PEM files when the node starts and turns them into Ratis' mutual-TLS setting. Every
 * file is parsed here, so a missing or broken one stops the start with its name instead of failing later in a
 * handshake (Ratis reads file-based settings lazily, on the first connection).
 */
final class PeerTls {
    private static final String KEY_BEGIN = "-----BEGIN PRIVATE KEY-----";
    private static final String KEY_END = "-----END PRIVATE KEY-----";
    /** PKCS#8 names the algorithm inside the key, but KeyFactory wants it up front: these are what TLS 1.2/1.3 use. */
    private static final List<String> KEY_ALGORITHMS = List.of("RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS");

    private PeerTls() {
    }

    /**
     * Mutual TLS: this node presents its chain to every peer it calls and to every peer that calls it, and both ends
     * refuse a peer whose certificate does not chain to one of the trusted certificates.
     *
     * @throws ConfigException naming the key and the file that cannot be read or parsed
     */
    static GrpcTlsConfig load(RaftSettings.TlsFiles files) {
        List<X509Certificate> chain = certificates(RaftSettings.TLS_CERTIFICATE.name(), files.certificate());
        PrivateKey key = privateKey(files.privateKey());
        checkPair(key, chain.get(0), files);
        List<X509Certificate> trusted = certificates(RaftSettings.TLS_TRUSTED.name(), files.trustedCertificates());
        try {
            return new GrpcTlsConfig(keyManager(key, chain), trustManager(trusted), true);
        } catch (GeneralSecurityException | IOException e) {
            throw new ConfigException("cannot use the raft TLS files " + files.certificate() + " and "
                    + files.privateKey() + " together: " + e.getMessage());
        }
    }

    private static List<X509Certificate> certificates(String keyName, Path file) {
        byte[] bytes = read(keyName, file);
        List<X509Certificate> out = new ArrayList<>();
        try {
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(
                    new ByteArrayInputStream(bytes))) {
                out.add((X509Certificate) c);
            }
        } catch (CertificateException | ClassCastException e) {
            throw new ConfigException(keyName + ": " + file + " is not a PEM file of X.509 certificates: "
                    + e.getMessage());
        }
        if (out.isEmpty()) {
            throw new ConfigException(keyName + ": " + file + " holds no certificate");
        }
        return out;
    }

    private static PrivateKey privateKey(Path file) {
        String keyName = RaftSettings.TLS_PRIVATE_KEY.name();
        String text = new String(read(keyName, file), StandardCharsets.US_ASCII);
        int begin = text.indexOf(KEY_BEGIN);
        int end = text.indexOf(KEY_END);
        if (begin < 0 || end < begin) {
            throw new ConfigException(keyName + ": " + file + " holds no '" + KEY_BEGIN + "' block (an unencrypted "
                    + "PKCS#8 key; `openssl pkcs8 -topk8 -nocrypt` converts other forms)");
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(text.substring(begin + KEY_BEGIN.length(), end));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(keyName + ": " + file + " is not valid base64: " + e.getMessage());
        }
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (InvalidKeySpecException | java.security.NoSuchAlgorithmException e) {
                // another algorithm's key: try the next
            }
        }
        throw new ConfigException(keyName + ": " + file + " is not a PKCS#8 private key of " + KEY_ALGORITHMS);
    }

    /** The key must be the certificate's: a mismatch would only show as every handshake failing. */
    private static void checkPair(PrivateKey key, X509Certificate certificate, RaftSettings.TlsFiles files) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "Ed25519", "Ed448", "EdDSA" -> key.getAlgorithm();
            default -> null; // RSASSA-PSS needs parameters; its mismatch shows in the handshake
        };
        if (algorithm == null) {
            return;
        }
        byte[] probe = "hangar raft tls key check".getBytes(StandardCharsets.US_ASCII);
        boolean matches;
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certificate.getPublicKey());
            verifier.update(probe);
            matches = verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            matches = false;
        }
        if (!matches) {
            throw new ConfigException(RaftSettings.TLS_PRIVATE_KEY.name() + ": " + files.privateKey()
                    + " is not the key of the first certificate in " + files.certificate());
        }
    }

    private static byte[] read(String keyName, Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new ConfigException(keyName + ": " + file + " does not exist");
        } catch (IOException e) {
            throw new ConfigException(keyName + ": cannot read " + file + ": " + e);
        }
    }

    private static KeyManager keyManager(PrivateKey key, List<X509Certificate> chain)
            throws GeneralSecurityException, IOException {
        // an in-memory key store only hands the key and chain to the JDK's key manager; its password guards nothing
        char[] password = new char[0];
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("self", key, password, chain.toArray(new X509Certificate[0]));
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(store, password);
        for (KeyManager m : factory.getKeyManagers()) {
            if (m instanceof X509KeyManager) {
                return m;
            }
        }
        throw new GeneralSecurityException("the JDK has no X.509 key manager");
    }

    private static TrustManager trustManager(List<X509Certificate> trusted)
            throws GeneralSecurityException, IOException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        for (int i = 0; i < trusted.size(); i++) {
            store.setCertificateEntry("trusted-" + i, trusted.get(i));
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(store);
        for (TrustManager m : factory.getTrustManagers()) {
            if (m instanceof X509TrustManager) {
                return m;
            }
        }
        throw new GeneralSecurityException("the JDK has no X.509 trust manager");
    }
}
