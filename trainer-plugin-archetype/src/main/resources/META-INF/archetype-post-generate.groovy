// The archetype plugin copies files without their permissions: make the Maven wrapper executable again.
def wrapper = new File(request.outputDirectory, request.artifactId + "/mvnw")
wrapper.setExecutable(true, false)
