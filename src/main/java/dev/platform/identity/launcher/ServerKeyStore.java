package dev.platform.identity.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.UnrecoverableKeyException;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * Issue 39: the launcher's HTTPS key (a PKCS#12 file with the server key and chain) and the file
 * holding its password, read at start so that a mistake stops the launcher with one line naming the
 * file. The password is never an argument: arguments show in every user's process list.
 */
record ServerKeyStore(Path file, Path passwordFile) {
  private static final Set<PosixFilePermission> OTHERS =
      EnumSet.complementOf(
          EnumSet.of(
              PosixFilePermission.OWNER_READ,
              PosixFilePermission.OWNER_WRITE,
              PosixFilePermission.OWNER_EXECUTE));

  /** The loaded key store and its password, or an {@link IllegalStateException} saying why not. */
  Opened open() {
    String password = password();
    KeyStore store;
    try (InputStream in = Files.newInputStream(file)) {
      store = KeyStore.getInstance("PKCS12");
      store.load(in, password.toCharArray());
    } catch (NoSuchFileException e) {
      throw new IllegalStateException("--tls-keystore " + file + " does not exist");
    } catch (IOException e) {
      // PKCS12 reports a wrong password as an IOException caused by UnrecoverableKeyException.
      if (e.getCause() instanceof UnrecoverableKeyException) {
        throw new IllegalStateException(
            "--tls-keystore " + file + ": wrong password in " + passwordFile);
      }
      throw new IllegalStateException(
          "--tls-keystore " + file + " cannot be read as PKCS#12: " + e.getMessage());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(
          "--tls-keystore " + file + " cannot be read as PKCS#12: " + e.getMessage());
    }
    if (!hasKey(store)) {
      throw new IllegalStateException("--tls-keystore " + file + " holds no private key");
    }
    return new Opened(store, password);
  }

  /** A key store ready for Tomcat. */
  record Opened(KeyStore store, String password) {
    /** Never the password. */
    @Override
    public String toString() {
      return "ServerKeyStore.Opened[store=" + store.getType() + "]";
    }
  }

  private static boolean hasKey(KeyStore store) {
    try {
      for (String alias : Collections.list(store.aliases())) {
        if (store.isKeyEntry(alias)) {
          return true;
        }
      }
      return false;
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  /** The file's first line; refused when others may read the file (as ssh refuses a key). */
  private String password() {
    try {
      PosixFileAttributeView view =
          Files.getFileAttributeView(passwordFile, PosixFileAttributeView.class);
      if (view != null) {
        Set<PosixFilePermission> permissions = view.readAttributes().permissions();
        if (!Collections.disjoint(permissions, OTHERS)) {
          throw new IllegalStateException(
              "--tls-keystore-password-file "
                  + passwordFile
                  + " is "
                  + PosixFilePermissions.toString(permissions)
                  + ": make it owner-only (chmod 600) before it holds a password");
        }
      }
      String text = Files.readString(passwordFile, StandardCharsets.UTF_8);
      return text.lines().findFirst().orElse("");
    } catch (NoSuchFileException e) {
      throw new IllegalStateException(
          "--tls-keystore-password-file " + passwordFile + " does not exist");
    } catch (IOException e) {
      throw new IllegalStateException(
          "--tls-keystore-password-file " + passwordFile + " cannot be read: " + e);
    }
  }
}
