package dev.platform.identity.it;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The set-up of a chaos class that attacks the launcher on its default H2 database (issue 35): one
 * launcher for the class, warmed up before the first attack, stopped after the last, and the chaos
 * report so far printed. Classes with a database or settings of their own start their own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@EnabledIfSystemProperty(named = "identity.chaos", matches = "true")
abstract class ChaosSuite {
  @TempDir static Path data;

  ChaosTarget target;

  @BeforeAll
  void startTarget() throws Exception {
    target = ChaosTarget.start(data, null);
    target.warmUp();
  }

  @AfterAll
  void stopTarget() throws InterruptedException {
    if (target != null) {
      target.close();
    }
    System.out.println("chaos report so far:\n" + ChaosReport.table());
  }
}
