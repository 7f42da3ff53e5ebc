package dev.platform.identity.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.util.Optional;

/**
 * The user this server runs as, and what a secret's file and folder must show about it: a secret is
 * only as safe as the folder it sits in, since whoever may write the folder may swap the file (the
 * rule ssh's StrictModes applies).
 */
final class ServerUser {
  private ServerUser() {}

  /**
   * By {@code user.name}; when that name is not known to the system (a container's bare uid), the
   * owner of a file this process creates, which is the process's user by definition.
   */
  static UserPrincipal principal() throws IOException {
    try {
      return Path.of("/")
          .getFileSystem()
          .getUserPrincipalLookupService()
          .lookupPrincipalByName(System.getProperty("user.name"));
    } catch (UserPrincipalNotFoundException | UnsupportedOperationException e) {
      Path probe = Files.createTempFile("identity-owner-", ".tmp");
      try {
        return Files.getOwner(probe);
      } finally {
        Files.deleteIfExists(probe);
      }
    }
  }

  /** What is wrong with the folder, if group or others may write it (create, delete, rename). */
  static Optional<String> writableByOthers(Path folder) throws IOException {
    PosixFileAttributes attributes;
    try {
      attributes = Files.readAttributes(folder, PosixFileAttributes.class);
    } catch (UnsupportedOperationException e) {
      return Optional.empty(); // no POSIX modes on this file system: its ACLs are the operator's
    }
    var permissions = attributes.permissions();
    if (permissions.contains(PosixFilePermission.GROUP_WRITE)
        || permissions.contains(PosixFilePermission.OTHERS_WRITE)) {
      return Optional.of(
          "whose folder "
              + folder
              + " group or others may write ("
              + PosixFilePermissions.toString(permissions)
              + "), so they could replace the file; make the folder writable by its owner only:"
              + " chmod 700 "
              + folder);
    }
    return Optional.empty();
  }

  /** What is wrong with the owner of {@code path}, if it is not this server's user. */
  static Optional<String> notOwned(Path path, String what, LinkOption... options)
      throws IOException {
    UserPrincipal owner;
    try {
      owner = Files.getOwner(path, options);
    } catch (UnsupportedOperationException e) {
      return Optional.empty();
    }
    UserPrincipal server = principal();
    if (owner.equals(server)) {
      return Optional.empty();
    }
    return Optional.of(
        what
            + " is owned by "
            + owner.getName()
            + ", not by this server's user ("
            + server.getName()
            + "); chown "
            + server.getName()
            + " "
            + path);
  }
}
