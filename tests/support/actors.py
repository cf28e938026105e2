from bot.actor import Actor

HOST = Actor(id=1, name="Host")
ANN = Actor(id=2, name="Ann")
BO = Actor(id=3, name="Bo")
ADMIN = Actor(id=9, name="Admin", manage_guild=True)
