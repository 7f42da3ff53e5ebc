package dev.platform.identity.admin;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.platform.identity.account.SecretPeppers;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
import java.util.SortedMap;

/**
 * {@code /admin/v1/secret-peppers}: how far a rotation of the secret pepper has got. Pepper ids
 * only, never a key; for {@code identity:admin} alone, as the peppers are the server's.
 */
@Path("/admin/v1/secret-peppers")
@Produces(MediaType.APPLICATION_JSON)
@AnyScopeOf(AdminAuth.ADMIN)
public final class SecretPeppersResource {
  private final SecretPeppers peppers;
  private final Clock clock;

  public SecretPeppersResource(SecretPeppers peppers, Clock clock) {
    this.peppers = peppers;
    this.clock = clock;
  }

  /** The census as the API shows it. */
  record CensusJson(
      @JsonProperty("current_pepper_id") String currentPepperId,
      @JsonProperty("accounts_on_previous_peppers") long accountsOnPreviousPeppers,
      @JsonProperty("accounts_on_unknown_peppers") long accountsOnUnknownPeppers,
      @JsonProperty("by_pepper") SortedMap<String, Long> byPepper) {
    static CensusJson from(SecretPeppers.Census census) {
      return new CensusJson(
          census.currentPepperId(),
          census.onPreviousPeppers(),
          census.onUnknownPeppers(),
          census.byPepper());
    }
  }

  @GET
  public CensusJson census(@Context ContainerRequestContext request) {
    AdminAuth.caller(request);
    return CensusJson.from(peppers.census(clock.instant()));
  }
}
