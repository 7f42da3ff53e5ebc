package dev.platform.identity.testkit;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import javax.crypto.SecretKey;

/**
 * The private signing keys of the service the kit started, read from its database and opened with
 * its key-encryption key by the service's own code: {@code key.SigningKeyRow} of the very WAR that
 * runs, loaded from its {@code WEB-INF/classes} in a class loader of its own (only the JDK above
 * it), so none of the service's classes is on the test's class path and none is copied.
 */
final class ServiceKeys implements AutoCloseable {
  private final String jdbcUrl;
  private final String password;
  private final SecretKey kek;
  private final URLClassLoader warClasses;
  private final Method open;

  ServiceKeys(Path war, String jdbcUrl, String password, SecretKey kek) {
    this.jdbcUrl = jdbcUrl;
    this.password = password;
    this.kek = kek;
    try {
      URL classes = new URL("jar:" + war.toUri() + "!/WEB-INF/classes/");
      this.warClasses =
          new URLClassLoader(
              "identity-war", new URL[] {classes}, ClassLoader.getPlatformClassLoader());
      this.open =
          warClasses
              .loadClass("dev.platform.identity.key.SigningKeyRow")
              .getMethod("open", Connection.class, SecretKey.class, String.class);
    } catch (MalformedURLException | ReflectiveOperationException e) {
      throw new IllegalStateException("the WAR " + war + " has no SigningKeyRow", e);
    }
  }

  /** The private key of {@code kid}, whose row's MAC holds under the service's key. */
  PrivateKey privateKey(String kid) {
    Properties credentials = new Properties();
    credentials.setProperty("user", "sa");
    credentials.setProperty("password", password);
    try (Connection connection = new org.h2.Driver().connect(jdbcUrl, credentials)) {
      return (PrivateKey) open.invoke(null, connection, kek, kid);
    } catch (SQLException e) {
      throw new IllegalStateException("the service's database cannot be read", e);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException failure) {
        throw failure;
      }
      throw new IllegalStateException("signing key " + kid + " cannot be opened", e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() throws IOException {
    warClasses.close();
  }
}
