package dev.platform.identity.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.logging.Logger;

/**
 * The launcher's data folder, owner-only (0700). H2 creates its files with the process's umask
 * (typically 0644, readable by every local user) and they hold the account table; the folder's mode
 * is what keeps other users out of all of them, the files H2 adds later included.
 */
final class DataFolder {
  private static final Logger LOG = Logger.getLogger(DataFolder.class.getName());
  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rwx------");

  private DataFolder() {}

  /**
   * Creates {@code folder} owner-only, or makes an existing one owner-only (saying so). On a file
   * system without POSIX permissions (Windows) the folder is only created.
   */
  static void prepare(Path folder) throws IOException {
    boolean created = !Files.isDirectory(folder);
    Files.createDirectories(folder);
    PosixFileAttributeView view = Files.getFileAttributeView(folder, PosixFileAttributeView.class);
    if (view == null) {
      return;
    }
    // Set after creating rather than as a creation attribute: that one would also apply to any
    // parent folders createDirectories makes, and the umask may narrow it further.
    Set<PosixFilePermission> before = view.readAttributes().permissions();
    if (!before.equals(OWNER_ONLY)) {
      view.setPermissions(OWNER_ONLY);
      if (!created) {
        LOG.warning(
            "The data folder "
                + folder
                + " was "
                + PosixFilePermissions.toString(before)
                + "; it holds the database and its keys, so it is now rwx------ (owner only)");
      }
    }
  }
}
