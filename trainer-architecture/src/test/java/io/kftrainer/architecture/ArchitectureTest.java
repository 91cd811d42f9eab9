package io.kftrainer.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The rules that keep the module list the architecture (CONTRIBUTING.md, "Architecture rules"), over every module's
 * main code: the classes of the project's jars, without test classes and test-jars.
 */
class ArchitectureTest {

  private static JavaClasses main;

  @BeforeAll
  static void importMainCode() {
    main = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(location -> !location.contains("-tests.jar"))
        .importPackages("io.kftrainer");
  }

  @Test
  void packagesAreFreeOfCycles() {
    slices().matching("io.kftrainer.(**)").should().beFreeOfCycles().check(main);
  }

  @Test
  void theFrameworkImportsNoClientAndNoNetworkPackage() {
    ArchRule rule = noClasses().that().resideInAPackage("io.kftrainer.framework..")
        .should().dependOnClassesThat().resideInAnyPackage(
            "io.fabric8.kubernetes.client..", "io.javaoperatorsdk..", "io.vertx..", "okhttp3..",
            "java.net.http..", "javax.net..", "com.sun.net.httpserver..")
        .orShould().dependOnClassesThat().haveFullyQualifiedName("java.net.Socket")
        .orShould().dependOnClassesThat().haveFullyQualifiedName("java.net.ServerSocket")
        .orShould().dependOnClassesThat().haveFullyQualifiedName("java.net.HttpURLConnection")
        .because("plugins read the cluster through the framework's read-only view, never over the network");
    rule.check(main);
  }

  @Test
  void noPluginImportsAnotherPlugin() {
    slices().matching("io.kftrainer.plugins.(*)..").should().notDependOnEachOther()
        .because("shared plugin logic belongs in the framework").check(main);
  }

  @Test
  void pluginsImportNeitherTheOperatorNorItsServers() {
    noClasses().that().resideInAPackage("io.kftrainer.plugins..")
        .should().dependOnClassesThat().resideInAnyPackage("io.kftrainer.operator..", "io.kftrainer.webhook..",
            "io.kftrainer.runtime..", "io.kftrainer.apiserver..", "io.kftrainer.local..", "io.kftrainer.cli..",
            "io.kftrainer.executor..", "io.javaoperatorsdk..")
        .check(main);
  }

  @Test
  void mainCodeImportsNoTestFixture() {
    noClasses().that().resideOutsideOfPackages("io.kftrainer.testkit..")
        .should().dependOnClassesThat().resideInAnyPackage("io.kftrainer.testkit..", "io.kftrainer.apiserver.testing..",
            "org.junit..", "org.assertj..", "org.awaitility..")
        .check(main);
  }
}
