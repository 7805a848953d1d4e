def test_home_page_answers(client):
    assert client.get("/").status_code == 200
