package dev.platform.identity.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.db.Database;
import dev.platform.identity.db.TestDatabases;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ScopeCatalogTest {
  private static final Set<String> SPEC_SCOPES =
      Set.of(
          "marketing:*",
          "marketing:content.view",
          "marketing:content.create",
          "marketing:circulars.view",
          "marketing:offers.view",
          "catalog:*",
          "catalog:products.view",
          "catalog:categories.view",
          "kitchen:*",
          "kitchen:menus.read",
          "kitchen:orders.calculate",
          "kitchen:orders.create",
          "kitchen:payments.read",
          "kitchen:payments.create",
          "kitchen:kiosks.bootstrap",
          "kitchen:kiosks.heartbeat");
  private static final Set<String> ADMIN_SCOPES =
      Set.of(
          "identity:admin",
          "identity:accounts.manage",
          "identity:keys.manage",
          "identity:metrics",
          "identity:audit.read",
          "identity:introspect");

  private final List<Database> databases = new ArrayList<>();
  private ScopeCatalog catalog;

  @BeforeEach
  void openCatalog() {
    catalog = new ScopeCatalog(track(TestDatabases.h2()));
  }

  @AfterEach
  void closeDatabases() {
    databases.forEach(Database::close);
  }

  @Test
  void whenMigratedThenEverySpecAndAdminScopeIsSeededWithADescription() {
    List<Scope> scopes = catalog.list();

    Set<String> expected =
        java.util.stream.Stream.concat(SPEC_SCOPES.stream(), ADMIN_SCOPES.stream())
            .collect(Collectors.toSet());
    assertEquals(expected, scopes.stream().map(Scope::name).collect(Collectors.toSet()));
    assertEquals(22, scopes.size());
    scopes.forEach(scope -> assertFalse(scope.description().isBlank(), scope.name()));
    scopes.forEach(scope -> assertTrue(Scope.isWellFormed(scope.name()), scope.name()));
  }

  @Test
  void whenListedThenSortedByName() {
    List<String> names = catalog.list().stream().map(Scope::name).toList();

    assertEquals(names.stream().sorted().toList(), names);
  }

  @Test
  void whenSeededThenSpecScopesCarryTheDesignDefaultChannels() {
    for (String name : SPEC_SCOPES) {
      assertEquals(Scope.defaultChannels(name), catalog.find(name).orElseThrow().channels(), name);
    }
  }

  @Test
  void whenSeededThenAdminScopesGiveNoChannels() {
    for (String name : ADMIN_SCOPES) {
      assertEquals(ChannelGrant.NONE, catalog.find(name).orElseThrow().channels(), name);
    }
  }

  @Test
  void whenFoundThenDescribedAsInTheSpec() {
    assertEquals(
        "Check item availability.", catalog.find("kitchen:menus.read").orElseThrow().description());
    assertEquals(Optional.empty(), catalog.find("kitchen:menus.write"));
  }

  @Test
  void whenScopeOmittedThenEveryAllowedCatalogScopeInAllowedOrder() {
    GrantedScopes granted =
        catalog.grant(
            List.of("kitchen:orders.create", "marketing:*", "gone:old.scope"), Optional.empty());

    assertEquals(List.of("kitchen:orders.create", "marketing:*"), granted.scopes());
    assertEquals("kitchen:orders.create marketing:*", granted.spaceSeparated());
  }

  @Test
  void whenScopeBlankThenTreatedAsOmitted() {
    GrantedScopes granted = catalog.grant(List.of("catalog:products.view"), Optional.of("   "));

    assertEquals(List.of("catalog:products.view"), granted.scopes());
  }

  @Test
  void whenSubsetRequestedThenOnlyThatSubset() {
    GrantedScopes granted =
        catalog.grant(
            List.of("catalog:products.view", "catalog:categories.view", "kitchen:menus.read"),
            Optional.of("kitchen:menus.read catalog:products.view"));

    assertEquals(List.of("kitchen:menus.read", "catalog:products.view"), granted.scopes());
  }

  @Test
  void whenRequestRepeatsScopesOrSpacesThenTheyCollapse() {
    GrantedScopes granted =
        catalog.grant(
            List.of("catalog:products.view", "kitchen:menus.read"),
            Optional.of(" kitchen:menus.read  kitchen:menus.read catalog:products.view "));

    assertEquals(List.of("kitchen:menus.read", "catalog:products.view"), granted.scopes());
  }

  @Test
  void whenAllowedDuplicatesThenGrantedOnce() {
    GrantedScopes granted =
        catalog.grant(List.of("kitchen:menus.read", "kitchen:menus.read"), Optional.empty());

    assertEquals(List.of("kitchen:menus.read"), granted.scopes());
  }

  @Test
  void whenWildcardAllowedThenWildcardAndEveryCatalogScopeOfItsServiceMayBeRequested() {
    List<String> allowed = List.of("marketing:*");

    assertEquals(
        List.of("marketing:*"), catalog.grant(allowed, Optional.of("marketing:*")).scopes());
    assertEquals(
        List.of("marketing:content.view", "marketing:offers.view"),
        catalog
            .grant(allowed, Optional.of("marketing:content.view marketing:offers.view"))
            .scopes());
  }

  @Test
  void whenWildcardAllowedThenAnUnknownScopeOfItsServiceIsStillRefused() {
    InvalidScopeException e =
        assertThrows(
            InvalidScopeException.class,
            () -> catalog.grant(List.of("marketing:*"), Optional.of("marketing:content.veiw")));

    assertEquals(Optional.of("marketing:content.veiw"), e.scope());
    assertEquals("scope 'marketing:content.veiw' does not exist", e.getMessage());
  }

  @Test
  void whenWildcardAllowedThenOtherServicesAreNotAllowed() {
    InvalidScopeException e =
        assertThrows(
            InvalidScopeException.class,
            () -> catalog.grant(List.of("marketing:*"), Optional.of("catalog:products.view")));

    assertEquals("scope 'catalog:products.view' is not allowed for this client", e.getMessage());
  }

  @Test
  void whenOnlySpecificScopesAllowedThenTheWildcardIsNotAllowed() {
    InvalidScopeException e =
        assertThrows(
            InvalidScopeException.class,
            () ->
                catalog.grant(
                    List.of("marketing:content.view", "marketing:content.create"),
                    Optional.of("marketing:*")));

    assertEquals(Optional.of("marketing:*"), e.scope());
  }

  @Test
  void whenSeveralScopesFailThenTheFirstIsNamed() {
    InvalidScopeException e =
        assertThrows(
            InvalidScopeException.class,
            () ->
                catalog.grant(
                    List.of("marketing:*"),
                    Optional.of(
                        "marketing:content.view catalog:products.view kitchen:nothing.here")));

    assertEquals(Optional.of("catalog:products.view"), e.scope());
  }

  @Test
  void whenRequestedScopeMalformedThenRefusedAsMalformed() {
    InvalidScopeException e =
        assertThrows(
            InvalidScopeException.class,
            () -> catalog.grant(List.of("marketing:*"), Optional.of("Marketing:Content.View")));

    assertTrue(e.getMessage().startsWith("scope 'Marketing:Content.View' is malformed"));
  }

  @Test
  void whenRequestedScopeVeryLongThenTheMessageIsCut() {
    String junk = "x".repeat(5000);

    InvalidScopeException e =
        assertThrows(
            InvalidScopeException.class,
            () -> catalog.grant(List.of("marketing:*"), Optional.of(junk)));

    assertEquals(junk, e.scope().orElseThrow());
    assertTrue(e.getMessage().length() < 400, e.getMessage());
  }

  @Test
  void whenNothingAllowedAndScopeOmittedThenInvalidScope() {
    InvalidScopeException e =
        assertThrows(
            InvalidScopeException.class,
            () -> catalog.grant(List.of("gone:old.scope"), Optional.empty()));

    assertEquals(Optional.empty(), e.scope());
  }

  @Test
  void whenGrantedThenChannelPermissionsAreTheSortedUnionOfTheCatalogsPatterns() {
    GrantedScopes granted =
        catalog.grant(
            List.of("marketing:*", "catalog:products.view"),
            Optional.of("marketing:content.create catalog:products.view marketing:content.view"));

    assertEquals(
        new ChannelGrant(
            List.of("catalog.products.*", "marketing.content.*"),
            List.of("marketing.content.*"),
            List.of("catalog.products.*", "marketing.content.*")),
        granted.channels());
  }

  @Test
  void whenWildcardGrantedThenEveryActionOnTheService() {
    GrantedScopes granted = catalog.grant(List.of("kitchen:*"), Optional.empty());

    List<String> all = List.of("kitchen.*");
    assertEquals(new ChannelGrant(all, all, all), granted.channels());
  }

  @Test
  void whenSameScopesInAnotherOrderThenSameChannels() {
    List<String> allowed = List.of("kitchen:*");

    assertEquals(
        catalog.grant(allowed, Optional.of("kitchen:orders.create kitchen:menus.read")).channels(),
        catalog.grant(allowed, Optional.of("kitchen:menus.read kitchen:orders.create")).channels());
  }

  @Test
  void whenAdminScopeGrantedThenNoChannels() {
    GrantedScopes granted = catalog.grant(List.of("identity:admin"), Optional.empty());

    assertEquals(List.of("identity:admin"), granted.scopes());
    assertEquals(ChannelGrant.NONE, granted.channels());
  }

  @Test
  void whenGrantingThenTheDatabaseIsNotAsked() {
    AtomicInteger connections = new AtomicInteger();
    DataSource counting =
        counting(TestDatabases.h2DataSource("count-" + UUID.randomUUID()), connections);
    ScopeCatalog counted = new ScopeCatalog(track(Database.open(counting)));
    int afterLoad = connections.get();

    for (int i = 0; i < 100; i++) {
      counted.grant(List.of("marketing:*", "kitchen:menus.read"), Optional.of("marketing:*"));
      counted.grant(List.of("marketing:*", "kitchen:menus.read"), Optional.empty());
      assertThrows(
          InvalidScopeException.class,
          () -> counted.grant(List.of("marketing:*"), Optional.of("nope:nope.nope")));
      counted.find("kitchen:menus.read");
      counted.list();
    }

    assertEquals(afterLoad, connections.get());
  }

  @Test
  void whenNewScopePutThenCreatedAndGrantableAtOnce() {
    boolean created = catalog.put("billing:invoices.view", "View invoices.", Optional.empty());

    assertTrue(created);
    Scope scope = catalog.find("billing:invoices.view").orElseThrow();
    assertEquals("View invoices.", scope.description());
    assertEquals(Scope.defaultChannels("billing:invoices.view"), scope.channels());
    assertEquals(23, catalog.list().size());
    assertEquals(
        List.of("billing:invoices.view"),
        catalog.grant(List.of("billing:invoices.view"), Optional.empty()).scopes());
  }

  @Test
  void whenExistingScopePutThenReplacedWholly() {
    ChannelGrant custom = new ChannelGrant(List.of("menus.public"), List.of(), List.of());
    catalog.put("kitchen:menus.read", "Read menus.", Optional.of(custom));

    assertEquals(custom, catalog.find("kitchen:menus.read").orElseThrow().channels());

    boolean created = catalog.put("kitchen:menus.read", "Read menus again.", Optional.empty());

    assertFalse(created);
    Scope scope = catalog.find("kitchen:menus.read").orElseThrow();
    assertEquals("Read menus again.", scope.description());
    assertEquals(Scope.defaultChannels("kitchen:menus.read"), scope.channels());
    assertEquals(22, catalog.list().size());
  }

  @Test
  void whenWildcardAllowedAndNewScopeOfItsServicePutThenItIsGrantable() {
    catalog.put("kitchen:menus.create", "Create menus.", Optional.empty());

    GrantedScopes granted =
        catalog.grant(List.of("kitchen:*"), Optional.of("kitchen:menus.create"));

    assertEquals(List.of("kitchen.menus.*"), granted.channels().publish());
  }

  @Test
  void whenInvalidScopePutThenNothingIsStored() {
    assertThrows(
        InvalidScopeException.class, () -> catalog.put("billing", "Billing.", Optional.empty()));
    assertThrows(
        InvalidScopeException.class,
        () -> catalog.put("billing:invoices.view", " ", Optional.empty()));

    assertEquals(22, catalog.list().size());
  }

  @Test
  void whenAnotherNodePutsThenThisNodeSeesItAfterRefresh() {
    String name = "shared-" + UUID.randomUUID();
    ScopeCatalog nodeA = new ScopeCatalog(track(Database.open(TestDatabases.h2DataSource(name))));
    ScopeCatalog nodeB = new ScopeCatalog(track(Database.open(TestDatabases.h2DataSource(name))));

    nodeA.put("billing:invoices.view", "View invoices.", Optional.empty());

    assertTrue(nodeA.find("billing:invoices.view").isPresent());
    assertTrue(nodeB.find("billing:invoices.view").isEmpty());
    nodeB.refresh();
    assertTrue(nodeB.find("billing:invoices.view").isPresent());
  }

  @Test
  void whenRefreshingEveryIntervalThenAnotherNodesPutArrives() throws Exception {
    String name = "shared-" + UUID.randomUUID();
    ScopeCatalog nodeA = new ScopeCatalog(track(Database.open(TestDatabases.h2DataSource(name))));
    ScopeCatalog nodeB = new ScopeCatalog(track(Database.open(TestDatabases.h2DataSource(name))));
    CountingScheduler scheduler = new CountingScheduler();
    try {
      nodeB.refreshEvery(Duration.ofMillis(20), scheduler);

      nodeA.put("billing:invoices.view", "View invoices.", Optional.empty());

      assertTrue(scheduler.awaitRunsStartedFromNow(10, TimeUnit.SECONDS), "nodeB refreshed");
      assertTrue(nodeB.find("billing:invoices.view").isPresent());
    } finally {
      scheduler.shutdownNow();
    }
  }

  @Test
  void whenRefreshFailsThenTheLastSnapshotStaysAndTheScheduleGoesOn() throws Exception {
    Database database = TestDatabases.h2();
    ScopeCatalog failing = new ScopeCatalog(database);
    database.close();
    CountingScheduler scheduler = new CountingScheduler();
    try {
      ScheduledFuture<?> refreshing = failing.refreshEvery(Duration.ofMillis(10), scheduler);

      // A failed refresh that threw would end the schedule: no second run would come.
      assertTrue(scheduler.awaitRunsStartedFromNow(10, TimeUnit.SECONDS), "the schedule went on");
      assertFalse(refreshing.isDone());
      assertEquals(22, failing.list().size());
      assertEquals(
          List.of("marketing:*"), failing.grant(List.of("marketing:*"), Optional.empty()).scopes());
    } finally {
      scheduler.shutdownNow();
    }
  }

  @Test
  void whenRefreshIntervalNotPositiveThenRefused() {
    ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    try {
      assertThrows(
          IllegalArgumentException.class, () -> catalog.refreshEvery(Duration.ZERO, scheduler));
    } finally {
      scheduler.shutdownNow();
    }
  }

  @Test
  void whenTwoNodesCreateTheSameScopeAtOnceThenBothSucceedAndOneCreated() throws Exception {
    String name = "shared-" + UUID.randomUUID();
    ScopeCatalog nodeA = new ScopeCatalog(track(Database.open(TestDatabases.h2DataSource(name))));
    ScopeCatalog nodeB = new ScopeCatalog(track(Database.open(TestDatabases.h2DataSource(name))));
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      for (int i = 0; i < 10; i++) {
        String scope = "race:thing" + i + ".view";
        CountDownLatch start = new CountDownLatch(1);
        Callable<Boolean> putA = racing(start, () -> nodeA.put(scope, "A.", Optional.empty()));
        Callable<Boolean> putB = racing(start, () -> nodeB.put(scope, "B.", Optional.empty()));
        Future<Boolean> a = threads.submit(putA);
        Future<Boolean> b = threads.submit(putB);
        start.countDown();

        assertTrue(a.get() ^ b.get(), scope);
        nodeA.refresh();
        assertTrue(nodeA.find(scope).isPresent());
      }
    } finally {
      threads.shutdownNow();
    }
  }

  private Database track(Database database) {
    databases.add(database);
    return database;
  }

  private static Callable<Boolean> racing(CountDownLatch start, Callable<Boolean> put) {
    return () -> {
      start.await();
      return put.call();
    };
  }

  /** A scheduler that counts the runs it has finished, so a test waits on them, not on time. */
  private static final class CountingScheduler extends ScheduledThreadPoolExecutor {
    private final Semaphore finished = new Semaphore(0);

    CountingScheduler() {
      super(1);
    }

    @Override
    protected void afterExecute(Runnable task, Throwable failure) {
      super.afterExecute(task, failure);
      finished.release();
    }

    /**
     * Waits for two more runs: one may have started before the call, the second starts after it.
     */
    boolean awaitRunsStartedFromNow(long timeout, TimeUnit unit) throws InterruptedException {
      finished.drainPermits();
      return finished.tryAcquire(2, timeout, unit);
    }
  }

  /** A DataSource that counts the connections taken from it: any SQL needs one. */
  private static DataSource counting(DataSource target, AtomicInteger connections) {
    return (DataSource)
        Proxy.newProxyInstance(
            DataSource.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              if (method.getName().equals("getConnection")) {
                connections.incrementAndGet();
              }
              try {
                return method.invoke(target, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }
}
